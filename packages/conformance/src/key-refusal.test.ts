import { DEFAULT_MESSAGES } from '@questkit/core';
import { describe, expect, it } from 'vitest';
import { readsAsKeyRefusal } from './key-refusal.js';

describe('readsAsKeyRefusal', () => {
  it("reads questkit's own refusals of a key as refused keys", () => {
    expect(readsAsKeyRefusal(DEFAULT_MESSAGES.badKey)).toBe(true);
    expect(readsAsKeyRefusal(DEFAULT_MESSAGES.missingKey)).toBe(true);
  });

  it('reads the words hand-written endpoints use, in any case and spelling', () => {
    for (const message of [
      'Invalid API key',
      'bad api-key',
      'apikey mismatch',
      'Missing X-Api-Key header',
      'Unauthorized',
      'unauthorised request',
      'FORBIDDEN',
    ]) {
      expect(readsAsKeyRefusal(message), message).toBe(true);
    }
  });

  it("never reads a member's refusal, a word inside another, or no message as a refused key", () => {
    for (const message of [
      'Subscribe first.',
      'You have not joined the server yet.',
      'apikeys are rotated weekly',
      'keyboard',
      'unforbidden',
      '',
      null,
      undefined,
    ]) {
      expect(readsAsKeyRefusal(message), String(message)).toBe(false);
    }
  });
});
