import { describe, expect, it } from 'vitest';
import { createReporter, showUrl } from './reporter.js';

describe('showUrl', () => {
  it('labels known origins, inside values too, and cuts signatures hardest', () => {
    const url =
      'http://127.0.0.1:4000/connect?svcUserId=10000000-0000-4000-8000-000000000002&callback=http%3A%2F%2F127.0.0.1%3A5000%2Fcb&signature=0123456789abcdef';
    expect(
      showUrl(url, { 'http://127.0.0.1:4000': 'community', 'http://127.0.0.1:5000': 'platform' }),
    ).toBe(
      'community:/connect?svcUserId=10000000-0000-4000-8000-000000000002&callback=platform:/cb&signature=01234567…',
    );
  });
});

describe('createReporter', () => {
  it('numbers steps and tracks whether the current one met its expectations', () => {
    let out = '';
    const reporter = createReporter((text) => {
      out += text;
    }, false);
    reporter.step('First');
    reporter.expect(true, 'good');
    expect(reporter.stepOk).toBe(true);
    reporter.step('Second');
    reporter.detail('a detail');
    expect(reporter.expect(false, 'bad')).toBe(false);
    expect(reporter.stepOk).toBe(false);
    expect(out).toBe('\n1. First\n   ✓ good\n\n2. Second\n   a detail\n   ✗ bad\n');
  });
});
