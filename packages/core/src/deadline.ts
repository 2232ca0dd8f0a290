/** What a race against a {@link Deadline} yields when the deadline passes first. */
export const TIMED_OUT = Symbol('timed out');

/**
 * Work that must end by `deadline` (a `Date.now()` timestamp): {@link watch} calls `expire` then,
 * unless {@link unwatch} came first.
 */
export class Watched {
  /** Links of the watch list, kept by this module. */
  prev: Watched | undefined;
  next: Watched | undefined;
  watched = false;

  constructor(
    readonly deadline: number,
    readonly expire: () => void,
  ) {}
}

// One timer for every pending body read and handler, not one each: starting and stopping a Node
// timer costs about a microsecond, as much as deciding a claim. It is armed for the earliest
// deadline, and holds the process open only while something is watched, as a timer of each would.
// The list is linked through its entries: watching and unwatching allocate nothing.
let head: Watched | undefined;
let tail: Watched | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Number.POSITIVE_INFINITY;
let timerHoldsProcess = false;

/** Calls `entry.expire()` at its deadline unless {@link unwatch} comes first. */
export function watch(entry: Watched): void {
  if (entry.watched) return;
  entry.watched = true;
  entry.prev = tail;
  entry.next = undefined;
  if (tail) tail.next = entry;
  else head = entry;
  tail = entry;
  if (entry.deadline < timerAt) arm(entry.deadline);
  else holdProcess(true);
}

/** Stops watching `entry`; its `expire` will not be called. */
export function unwatch(entry: Watched): void {
  if (!entry.watched) return;
  entry.watched = false;
  if (entry.prev) entry.prev.next = entry.next;
  else head = entry.next;
  if (entry.next) entry.next.prev = entry.prev;
  else tail = entry.prev;
  entry.prev = entry.next = undefined;
  if (head === undefined) holdProcess(false);
}

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(sweep, Math.max(0, at - Date.now()));
  timerHoldsProcess = true;
}

function sweep(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  const due: Watched[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (let entry = head; entry !== undefined; entry = entry.next) {
    if (entry.deadline <= now) due.push(entry);
    else if (entry.deadline < next) next = entry.deadline;
  }
  for (const entry of due) unwatch(entry);
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  // Expired last, with the list and the timer settled (an `expire` may watch something new),
  // earliest deadline first when a late timer found several due.
  if (due.length > 1) due.sort((a, b) => a.deadline - b.deadline);
  for (const entry of due) entry.expire();
}

/** Node's timers can let the process exit while they wait; other runtimes' timers are plain ids. */
function holdProcess(hold: boolean): void {
  if (timer === undefined || hold === timerHoldsProcess) return;
  timerHoldsProcess = hold;
  const handle = timer as { ref?: () => unknown; unref?: () => unknown };
  if (hold) handle.ref?.();
  else handle.unref?.();
}

/** A deadline to race work against: `passed` settles with {@link TIMED_OUT}; `clear` stops it. */
export interface Deadline {
  passed: Promise<typeof TIMED_OUT>;
  clear(): void;
}

/** Starts watching `deadline`. Reading a stream races every chunk against one. */
export function startDeadline(deadline: number): Deadline {
  let expire: () => void = () => {};
  const passed = new Promise<typeof TIMED_OUT>((resolve) => {
    expire = () => resolve(TIMED_OUT);
  });
  const entry = new Watched(deadline, expire);
  watch(entry);
  return { passed, clear: () => unwatch(entry) };
}
