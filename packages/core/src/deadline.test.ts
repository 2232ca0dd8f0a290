import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startDeadline, TIMED_OUT, unwatch, Watched, watch } from './deadline.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits at least `minMs`, then until `done()` holds (at most 3 s: a busy machine is slow). */
async function settle(minMs: number, done: () => boolean): Promise<void> {
  await sleep(minMs);
  for (let waited = 0; !done() && waited < 3000; waited += 10) await sleep(10);
}

/** Watches entries at `delays` ms from now; returns what expired, in order, and when. */
function watchAll(delays: readonly number[]) {
  const expired: { index: number; lateBy: number }[] = [];
  const start = Date.now();
  const entries = delays.map(
    (delay, index) =>
      new Watched(start + delay, () => expired.push({ index, lateBy: Date.now() - start - delay })),
  );
  for (const entry of entries) watch(entry);
  return { entries, expired };
}

describe('one timer for every deadline', () => {
  it('expires entries in deadline order, whatever order they were watched in, never early', async () => {
    const { expired } = watchAll([60, 20, 40, 0]);
    await settle(70, () => expired.length === 4);
    expect(expired.map((entry) => entry.index)).toEqual([3, 1, 2, 0]);
    for (const entry of expired) expect(entry.lateBy).toBeGreaterThanOrEqual(0);
  });

  it('never expires an entry unwatched before its deadline; unwatching twice is harmless', async () => {
    const { entries, expired } = watchAll([10, 30]);
    unwatch(entries[0]!);
    unwatch(entries[0]!);
    await settle(40, () => expired.length > 0);
    expect(expired.map((entry) => entry.index)).toEqual([1]);
    unwatch(entries[1]!);
  });

  it('watches an entry once however often it is watched', async () => {
    let calls = 0;
    const entry = new Watched(Date.now() + 5, () => calls++);
    watch(entry);
    watch(entry);
    await settle(30, () => calls > 0);
    expect(calls).toBe(1);
  });

  it('lets an expiring entry watch a new one', async () => {
    const order: string[] = [];
    const second = new Watched(Date.now() + 20, () => order.push('second'));
    const first = new Watched(Date.now() + 5, () => {
      order.push('first');
      watch(second);
    });
    watch(first);
    await settle(30, () => order.length === 2);
    expect(order).toEqual(['first', 'second']);
  });

  it('expires exactly the entries still watched at their deadline (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 40 }), keep: fc.boolean() }), {
          minLength: 1,
          maxLength: 60,
        }),
        async (plan) => {
          const { entries, expired } = watchAll(plan.map((step) => step.delay));
          plan.forEach((step, index) => {
            if (!step.keep) unwatch(entries[index]!);
          });
          const kept = plan.flatMap((step, index) => (step.keep ? [index] : []));
          // Past every deadline, the unwatched ones' too, then until the watched ones are in.
          await settle(50, () => expired.length >= kept.length);
          expect(expired.map((entry) => entry.index).sort((a, b) => a - b)).toEqual(kept);
          for (const entry of expired) expect(entry.lateBy).toBeGreaterThanOrEqual(0);
          // In deadline order: no entry expires before one whose deadline is earlier.
          const deadlines = expired.map((entry) => plan[entry.index]!.delay);
          expect(deadlines).toEqual([...deadlines].sort((a, b) => a - b));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('races work against a deadline with startDeadline', async () => {
    const late = startDeadline(Date.now() + 10);
    expect(await Promise.race([sleep(200).then(() => 'work'), late.passed])).toBe(TIMED_OUT);
    const cleared = startDeadline(Date.now() + 10);
    cleared.clear();
    expect(await Promise.race([sleep(40).then(() => 'work'), cleared.passed])).toBe('work');
  });
});

describe('the shared timer and the process', () => {
  const dist = new URL('../dist/index.js', import.meta.url).href;

  /** Runs a module script in a fresh Node; resolves with its output and how long it lived. */
  function runNode(script: string): Promise<{ output: string; ms: number; code: number | null }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
      });
      let output = '';
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(killer);
        resolve({ output: output.trim(), ms: Date.now() - started, code });
      });
    });
  }

  const prelude = `
    import { EventEmitter } from 'node:events';
    import { createVerifier, ok } from ${JSON.stringify(dist)};
    const claim = JSON.stringify({ userId: 'u', communityId: 'c', subdomain: 's', questId: 'q', requestId: 'r' });
    const verifier = createVerifier({ apiKey: 'k', verify: () => ok('yes'), timeoutMs: TIMEOUT });
    const body = new EventEmitter();
  `;

  it('does not hold the process once nothing is watched (the 8 s deadline is not waited for)', async () => {
    const { output, ms, code } = await runNode(`${prelude.replace('TIMEOUT', '8000')}
      const decision = verifier.decide({ headers: { 'x-api-key': 'k' }, body });
      setTimeout(() => { body.emit('data', new TextEncoder().encode(claim)); body.emit('end'); }, 20);
      console.log((await decision).reason);
    `);
    expect({ output, code }).toEqual({ output: 'ok', code: 0 });
    expect(ms).toBeLessThan(6_000);
  });

  it('holds the process while a read is pending, so a stalled body still gets its answer', async () => {
    const { output, ms, code } = await runNode(`${prelude.replace('TIMEOUT', '300')}
      // Nothing else keeps this process alive: only the deadline of the pending read.
      verifier.decide({ headers: { 'x-api-key': 'k' }, body }).then((d) => console.log(d.reason));
    `);
    expect({ output, code }).toEqual({ output: 'timeout', code: 0 });
    expect(ms).toBeGreaterThanOrEqual(300);
  });
});
