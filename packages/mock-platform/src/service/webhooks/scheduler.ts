import type { Clock, ManualClock } from '../../clock.js';

// Work due at a time on the platform clock (webhook retries). On a manual clock nothing runs by
// itself: `advance` moves the clock to each due time in turn and runs what falls due there, so
// a day of retries takes as long as the HTTP calls. On any other clock, real timers.

/** A clock that can be moved: what makes the scheduler manual. */
export function isManualClock(clock: Clock): clock is ManualClock {
  const candidate = clock as Partial<ManualClock>;
  return typeof candidate.advance === 'function' && typeof candidate.set === 'function';
}

/** What an `advance` did. */
export interface AdvanceReport {
  /** The clock after the advance (ISO 8601). */
  now: string;
  /** Jobs run. */
  ran: number;
  /** Jobs still waiting. */
  pending: number;
}

/** Runs jobs at times of the platform clock. */
export interface Scheduler {
  /** `manual`: jobs run when the clock is advanced; `timers`: real timers. */
  readonly mode: 'manual' | 'timers';
  /** Runs `run` at `dueAt` (ms since the epoch, platform clock); replaces a job of the same id. */
  schedule(id: string, dueAt: number, run: () => Promise<void>): void;
  /** Removes a job; false when there was none. */
  cancel(id: string): boolean;
  /** Jobs waiting. */
  pending(): number;
  /** Whether a job of this id is waiting. */
  has(id: string): boolean;
  /**
   * Manual mode: moves the clock forward by `ms`, stopping at each due time in order to run the
   * jobs due there (jobs they schedule inside the window run too), then sets the clock to the
   * end. Throws a TypeError in timers mode: the system clock cannot be moved.
   */
  advance(ms: number): Promise<AdvanceReport>;
  /** Runs the jobs already due, now; resolves when they have finished. */
  runDue(): Promise<number>;
  /** Drops every job and timer. */
  stop(): void;
}

/** The most due times one advance visits: a safety bound, far above what retries need. */
export const MAX_ADVANCE_STEPS = 100_000;

interface Job {
  dueAt: number;
  run: () => Promise<void>;
  timer?: ReturnType<typeof setTimeout>;
}

// setTimeout's largest delay; longer ones are re-armed when they fire.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A scheduler over the platform clock: manual when the clock is a {@link ManualClock}, real
 * timers otherwise. `onError` receives what a job throws (jobs are expected not to).
 *
 * @example
 * const clock = createManualClock();
 * const scheduler = createScheduler(clock, console.error);
 * scheduler.schedule('retry-1', clock.now().getTime() + 10_000, async () => retry());
 * await scheduler.advance(10_000); // runs retry()
 */
export function createScheduler(clock: Clock, onError: (error: unknown) => void): Scheduler {
  const jobs = new Map<string, Job>();
  const manual = isManualClock(clock) ? clock : undefined;
  const now = () => clock.now().getTime();
  const runSafely = async (job: Job) => {
    try {
      await job.run();
    } catch (error) {
      onError(error);
    }
  };
  const arm = (id: string, job: Job) => {
    const delay = Math.min(Math.max(0, job.dueAt - now()), MAX_TIMER_MS);
    job.timer = setTimeout(() => {
      if (jobs.get(id) !== job) return;
      if (job.dueAt - now() > MAX_TIMER_MS) {
        arm(id, job);
        return;
      }
      jobs.delete(id);
      void runSafely(job);
    }, delay);
    // A pending retry must not keep a process (a test run, the CLI) alive.
    (job.timer as { unref?: () => void }).unref?.();
  };
  const takeDue = (at: number): Job[] => {
    const due: Job[] = [];
    for (const [id, job] of jobs) {
      if (job.dueAt <= at) {
        jobs.delete(id);
        if (job.timer) clearTimeout(job.timer);
        due.push(job);
      }
    }
    return due;
  };
  const earliest = (): number | null => {
    let first: number | null = null;
    for (const job of jobs.values()) if (first === null || job.dueAt < first) first = job.dueAt;
    return first;
  };
  // One advance at a time: two interleaved advances would each move the clock.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    mode: manual ? 'manual' : 'timers',
    schedule(id, dueAt, run) {
      const previous = jobs.get(id);
      if (previous?.timer) clearTimeout(previous.timer);
      const job: Job = { dueAt, run };
      jobs.set(id, job);
      if (!manual) arm(id, job);
    },
    cancel(id) {
      const job = jobs.get(id);
      if (!job) return false;
      if (job.timer) clearTimeout(job.timer);
      return jobs.delete(id);
    },
    pending: () => jobs.size,
    has: (id) => jobs.has(id),
    advance(ms) {
      if (!manual) {
        return Promise.reject(
          new TypeError(
            '[@questkit/mock-platform] the clock can only be advanced on a manual clock',
          ),
        );
      }
      if (!Number.isFinite(ms) || ms < 0) {
        return Promise.reject(
          new TypeError('[@questkit/mock-platform] advance: ms must be a non-negative number'),
        );
      }
      const step = async (): Promise<AdvanceReport> => {
        const target = now() + ms;
        let ran = 0;
        for (let visited = 0; visited < MAX_ADVANCE_STEPS; visited++) {
          const dueAt = earliest();
          if (dueAt === null || dueAt > target) break;
          if (dueAt > now()) manual.set(new Date(dueAt));
          const due = takeDue(now());
          await Promise.all(due.map(runSafely));
          ran += due.length;
        }
        if (target > now()) manual.set(new Date(target));
        return { now: clock.now().toISOString(), ran, pending: jobs.size };
      };
      const result = queue.then(step, step);
      queue = result.catch(() => undefined);
      return result;
    },
    async runDue() {
      const due = takeDue(now());
      await Promise.all(due.map(runSafely));
      return due.length;
    },
    stop() {
      for (const job of jobs.values()) if (job.timer) clearTimeout(job.timer);
      jobs.clear();
    },
  };
}
