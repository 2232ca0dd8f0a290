import { describe, expect, it, vi } from 'vitest';
import { createMemoryDedupe } from './dedupe.js';

describe('createMemoryDedupe', () => {
  it('refuses lifetimes and sizes that are not whole numbers in range, naming the option', () => {
    expect(() => createMemoryDedupe({ doneTtlMs: 1.5 })).toThrow(/createMemoryDedupe: doneTtlMs/);
    expect(() => createMemoryDedupe({ claimTtlMs: 1.5 })).toThrow(/createMemoryDedupe: claimTtlMs/);
    expect(() => createMemoryDedupe({ claimTtlMs: 0 })).toThrow(/createMemoryDedupe: claimTtlMs/);
    expect(() => createMemoryDedupe({ claimTtlMs: 24 * 60 * 60 * 1000 + 1 })).toThrow(
      /createMemoryDedupe: claimTtlMs/,
    );
    expect(() => createMemoryDedupe({ maxIds: 2.5 })).toThrow(/createMemoryDedupe: maxIds/);
  });

  it('counts an id written again as the newest: the oldest untouched one is forgotten first', () => {
    const dedupe = createMemoryDedupe({ maxIds: 2 });
    dedupe.claim('a', 'ta');
    dedupe.claim('b', 'tb');
    dedupe.done('a', 'ta');
    dedupe.claim('c', 'tc');
    // "a" was written after "b": "b" is the one forgotten.
    expect(dedupe.claim('a', 't')).toBe('done');
    expect(dedupe.claim('b', 't')).toBe('claimed');
  });

  it('lets a claim expire at exactly its lifetime', () => {
    // A clock set by hand, restored before any other code runs: no fake timers, nothing awaited.
    const now = vi.spyOn(Date, 'now');
    const seen: unknown[] = [];
    try {
      now.mockReturnValue(1_000_000);
      const dedupe = createMemoryDedupe({ claimTtlMs: 10 });
      seen.push(dedupe.claim('x', 't1'));
      now.mockReturnValue(1_000_009);
      seen.push(dedupe.claim('x', 't2'));
      now.mockReturnValue(1_000_010);
      seen.push(dedupe.claim('x', 't3'));
    } finally {
      now.mockRestore();
    }
    expect(seen).toEqual(['claimed', 'busy', 'claimed']);
  });

  it('releases only its own claim, and an unknown id quietly', () => {
    const dedupe = createMemoryDedupe();
    expect(dedupe.claim('x', 'mine')).toBe('claimed');
    dedupe.release('x', 'stale');
    expect(dedupe.claim('x', 'other')).toBe('busy');
    expect(() => dedupe.release('never-claimed', 't')).not.toThrow();
    dedupe.release('x', 'mine');
    expect(dedupe.claim('x', 'next')).toBe('claimed');
  });
});
