import { describe, expect, it } from 'vitest';
import {
  REVIEW_ACTION_IDS_MAX,
  REVIEW_BONUS_XP_MAX,
  ReviewActionBodySchema,
  ReviewListQuerySchema,
} from './reviews.js';

const id = '70000000-0000-4000-8000-000000000001';
const body = (fields: Record<string, unknown>) => ({ claimedQuestIds: [id], ...fields });
const messages = (value: unknown) => {
  const result = ReviewActionBodySchema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the review action body', () => {
  it.each([
    [{ status: 'success' }],
    [{ status: 'success', comment: 'ok', mark: 'star', bonusXP: REVIEW_BONUS_XP_MAX }],
    [{ status: 'fail', comment: 'no', mark: 'flag' }],
    [{ status: 'pending' }],
  ])('accepts %j', (fields) => {
    expect(messages(body(fields))).toEqual([]);
  });

  it.each([
    [
      { status: 'pending', comment: 'x' },
      'comment: A comment is only allowed with status success or fail',
    ],
    [{ status: 'fail', mark: 'star' }, 'mark: A star is only allowed with status success'],
    [{ status: 'pending', mark: 'star' }, 'mark: A star is only allowed with status success'],
    [{ status: 'success', mark: 'flag' }, 'mark: A flag is only allowed with status fail'],
    [{ status: 'pending', mark: 'flag' }, 'mark: A flag is only allowed with status fail'],
    [
      { status: 'success', bonusXP: 5 },
      'bonusXP: bonusXP is only allowed with status success and mark star',
    ],
    [
      { status: 'fail', bonusXP: 5 },
      'bonusXP: bonusXP is only allowed with status success and mark star',
    ],
    [
      { status: 'pending', bonusXP: 5 },
      'bonusXP: bonusXP is only allowed with status success and mark star',
    ],
  ])('refuses %j, naming the rule', (fields, message) => {
    expect(messages(body(fields))).toContain(message);
  });

  it('bounds the ids, the bonus and the comment', () => {
    expect(messages({ claimedQuestIds: [], status: 'success' })).not.toEqual([]);
    expect(messages(body({ claimedQuestIds: [id, id], status: 'success' }))).toContain(
      'claimedQuestIds: Each claimed quest id may be given once',
    );
    const many = Array.from(
      { length: REVIEW_ACTION_IDS_MAX + 1 },
      (_, n) => `70000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    );
    expect(messages({ claimedQuestIds: many, status: 'success' })).not.toEqual([]);
    expect(messages(body({ status: 'success', mark: 'star', bonusXP: 0 }))).not.toEqual([]);
    expect(
      messages(body({ status: 'success', mark: 'star', bonusXP: REVIEW_BONUS_XP_MAX + 1 })),
    ).not.toEqual([]);
    expect(messages(body({ status: 'success', comment: '' }))).not.toEqual([]);
  });

  it('lowers the ids, as every request uuid', () => {
    const parsed = ReviewActionBodySchema.parse(
      body({ claimedQuestIds: [id.toUpperCase()], status: 'fail' }),
    );
    expect(parsed.claimedQuestIds).toEqual([id]);
  });
});

describe('the review list query', () => {
  it('takes limit 1..100 in digits, a status of the list, and null or empty as the first page', () => {
    expect(ReviewListQuerySchema.safeParse({ limit: '100' }).success).toBe(true);
    expect(ReviewListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(ReviewListQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(ReviewListQuerySchema.safeParse({ status: 'cancel' }).success).toBe(false);
    expect(ReviewListQuerySchema.parse({ cursor: 'null' }).cursor).toBeNull();
    expect(ReviewListQuerySchema.parse({ cursor: '' }).cursor).toBeNull();
  });
});
