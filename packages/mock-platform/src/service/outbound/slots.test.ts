import { describe, expect, it } from 'vitest';
import { createSlots } from './slots.js';

/** A task that runs until the test lets it go, noting when it started. */
function heldTask(started: number[], id: number) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish: () => finish(),
    task: async () => {
      started.push(id);
      await done;
      return id;
    },
  };
}

describe('createSlots', () => {
  it('runs at most `size` tasks at once and starts the waiters first come first served', async () => {
    const slots = createSlots(2);
    const started: number[] = [];
    const held = [1, 2, 3, 4, 5].map((id) => heldTask(started, id));
    const results = held.map(({ task }) => slots.run(task));
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    held[1]!.finish();
    await results[1];
    // The freed slot goes to the first waiter, 3, not to a later one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3]);
    for (const { finish } of held) finish();
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('is full once `maxWaiting` tasks wait, and no longer once one of them starts', async () => {
    const slots = createSlots(1, 2);
    const started: number[] = [];
    const held = [1, 2, 3].map((id) => heldTask(started, id));
    const results = held.map(({ task }) => slots.run(task));
    expect(slots.full()).toBe(true);
    held[0]!.finish();
    await results[0];
    expect(slots.full()).toBe(false);
    for (const { finish } of held) finish();
    await Promise.all(results);
  });

  it('frees the slot of a task that throws, and passes the error on', async () => {
    const slots = createSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
