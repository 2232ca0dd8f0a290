import type { ObservedAnswer } from '@questkit/core/api';
import type { ConnectPlan, ConnectRequestId } from './connect.js';
import type { Plan, PlannedProbe } from './plan.js';
import { type OutgoingRequest, STOPPED, send } from './send.js';
import type { Settings } from './settings.js';

/** One request of a probe and what came back. */
export interface Exchange {
  request: OutgoingRequest;
  answer: ObservedAnswer;
}

/** A probe once sent: its exchanges, or why it sent nothing. */
export interface Sent {
  planned: PlannedProbe;
  exchanges: Exchange[];
  /** Why it was not sent: the run was stopped, or had no time left for it. */
  cut?: string;
  durationMs: number;
}

/** The connect redirects once sent, or why they were not. */
export interface ConnectSent {
  plan: ConnectPlan;
  exchanges: Partial<Record<ConnectRequestId, Exchange>>;
  cut?: string;
  durationMs: number;
}

/** One request to the endpoint, in the order its answer (or its failure) came. */
export interface Ended {
  /** The probe that sent it. */
  id: string;
  answer: ObservedAnswer;
}

/** How the sending ended. */
export interface Sending {
  /** Why nothing answered at all (connection refused, ...), when so. */
  unreachable?: string;
  connect?: ConnectSent;
  /** Every request to the endpoint, in the order they ended: a server that stopped shows here. */
  timeline: Ended[];
}

// Past the budget, requests still in flight are stopped here: no run outlasts 3 time limits.
const HARD_STOP_LIMITS = 3;

/**
 * Sends the plan's probes and hands each to `done` as it finishes (`done` may answer a reason
 * to start nothing more: fail fast). The well-formed claim goes first, alone: when it finds the
 * endpoint unreachable nothing else is sent. Then the platform's calls side by side (at most
 * `concurrency` at once), the burst and the latency series alone (nothing else skews them),
 * and the hardening probes side by side, then the connect redirects one after another. A probe
 * starts only while the slowest answer so far still fits in the run's budget, and a latency
 * series stops where the next claim would not.
 */
export async function exchangeAll(
  plan: Plan,
  settings: Settings,
  done: (sent: Sent) => string | undefined,
): Promise<Sending> {
  const { timeoutMs, budgetMs, transport } = settings;
  const started = performance.now();
  const user = settings.options.signal;
  const stop = new AbortController();
  const hardStop = setTimeout(() => stop.abort(), HARD_STOP_LIMITS * timeoutMs);
  const onUser = () => stop.abort();
  user?.addEventListener('abort', onUser, { once: true });
  let stopped: string | undefined;
  let slowest = 0;
  let hung = false;
  const timeline: Ended[] = [];

  const seconds = Math.round(budgetMs / 1000);
  /** Why a probe may not start now, or undefined when it may. */
  const blocked = (): string | undefined => {
    if (user?.aborted) return STOPPED;
    if (stopped !== undefined) return stopped;
    if (stop.signal.aborted || performance.now() - started + slowest > budgetMs) {
      return hung
        ? `not judged: answers never came, and the run stops waiting after ${seconds} s`
        : `not judged: answers take ${(slowest / 1000).toFixed(1)} s, and the run ends within ${seconds} s`;
    }
    return undefined;
  };
  const exchange = async (id: string, request: OutgoingRequest): Promise<Exchange> => {
    const answer = await send(request, { timeoutMs, signal: stop.signal, transport });
    if (answer.error !== STOPPED) timeline.push({ id, answer });
    if (answer.timedOut) hung = true;
    slowest = Math.max(slowest, answer.timedOut ? timeoutMs : answer.elapsedMs);
    return { request, answer };
  };
  const finish = (planned: PlannedProbe, begun: number, exchanges: Exchange[], cut?: string) => {
    // A request stopped in flight judged nothing: the probe was cut, not answered.
    const halted = exchanges.some(({ answer }) => answer.error === STOPPED);
    const reason = cut ?? (halted ? (user?.aborted ? STOPPED : blocked()) : undefined);
    const sent: Sent = {
      planned,
      exchanges: reason === undefined ? exchanges : [],
      ...(reason !== undefined ? { cut: reason } : {}),
      durationMs: Math.round(performance.now() - begun),
    };
    const stop = done(sent);
    stopped ??= stop;
  };
  const run = async (planned: PlannedProbe): Promise<Exchange[]> => {
    const begun = performance.now();
    const reason = planned.skip === undefined ? blocked() : undefined;
    const exchanges: Exchange[] = [];
    if (planned.skip !== undefined || reason !== undefined) {
      finish(planned, begun, exchanges, reason);
      return exchanges;
    }
    const { requests } = planned;
    const { id } = planned.probe;
    if (planned.probe.mode === 'burst') {
      exchanges.push(...(await Promise.all(requests.map((request) => exchange(id, request)))));
    } else {
      for (const request of requests) {
        exchanges.push(await exchange(id, request));
        // One answer that never came says enough; past the budget the series is cut short.
        if (exchanges.at(-1)!.answer.status === undefined || blocked() !== undefined) break;
      }
    }
    finish(planned, begun, exchanges);
    return exchanges;
  };
  const alone = (p: PlannedProbe) => p.probe.mode === 'burst' || p.probe.mode === 'series';
  // Connect redirects go to another handler, over the global fetch, one after another.
  const sendConnect = async (connect: ConnectPlan): Promise<ConnectSent> => {
    const begun = performance.now();
    const exchanges: ConnectSent['exchanges'] = {};
    for (const { id, request } of connect.requests) {
      const cut = blocked();
      if (cut !== undefined) return { plan: connect, exchanges: {}, cut, durationMs: 0 };
      const answer = await send(request, { timeoutMs, signal: stop.signal });
      exchanges[id] = { request, answer };
    }
    const halted = Object.values(exchanges).some((one) => one?.answer.error === STOPPED);
    const cut = halted ? (user?.aborted ? STOPPED : blocked()) : undefined;
    return {
      plan: connect,
      exchanges: cut === undefined ? exchanges : {},
      ...(cut !== undefined ? { cut } : {}),
      durationMs: Math.round(performance.now() - begun),
    };
  };

  try {
    const [baseline, ...others] = plan.probes;
    const first = baseline && (await run(baseline))[0]?.answer;
    if (first?.status === undefined && !first?.timedOut && first?.error !== undefined) {
      if (first.error !== STOPPED) stopped = 'the endpoint is unreachable';
    }
    const unreachable = stopped === 'the endpoint is unreachable' ? first?.error : undefined;
    const calls = others.filter((p) => p.tier !== 'hardening' && !alone(p));
    await pool(calls, settings.concurrency, run);
    for (const planned of others.filter(alone)) await run(planned);
    const hardening = others.filter((p) => p.tier === 'hardening' && !alone(p));
    await pool(hardening, settings.concurrency, run);
    const connect = plan.connect && (await sendConnect(plan.connect));
    return {
      ...(unreachable !== undefined ? { unreachable } : {}),
      ...(connect ? { connect } : {}),
      timeline,
    };
  } finally {
    clearTimeout(hardStop);
    user?.removeEventListener('abort', onUser);
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
