import type { CallbackParam } from '@questkit/core';
import { PLATFORM_TIMEOUT_MS } from '@questkit/core/api';
import type { MockContext } from '../context.js';
import { createBackgroundWork } from './background-work.js';
import { type Claims, createClaims } from './claims.js';
import { type ConnectService, createConnectService } from './connect.js';
import { createEndpointChecks, type EndpointChecks } from './endpoint-checks.js';
import { createOutbound, type Outbound, type OutboundOptions } from './outbound/outbound.js';
import { createSlots } from './outbound/slots.js';
import { type CallJournal, createRecordedCalls } from './recorded-calls.js';
import { type ClaimJournal, createRecordedClaims } from './recorded-claims.js';
import {
  createDeliveries,
  type Deliveries,
  type WebhookDeliveryOptions,
  webhookSettings,
} from './webhooks/deliveries.js';
import { createSprintEvents, eventHooks } from './webhooks/platform-events.js';
import { type AdvanceReport, createScheduler, type Scheduler } from './webhooks/scheduler.js';

/** Options of the service side, given to `createMockPlatform` with the others. */
export interface MockServiceOptions {
  /**
   * The public base URL of the mock (`https://mock.example`), where the connect callback points.
   * Default: where the mock listens (`startMockServer`), never a request's `Host`.
   */
  baseUrl?: string;
  /** Time limit of a verification call, in ms (default 10 000, the platform's). */
  verificationTimeoutMs?: number;
  /** The name of the callback parameter of connect redirects (default `callback`). */
  connectCallbackParam?: CallbackParam;
  /** Check the endpoint of every API task of a quest created through the public API (default true). */
  endpointChecks?: boolean;
  /** Webhook delivery and retry settings. */
  webhooks?: WebhookDeliveryOptions;
  /** Claims, verification calls and endpoint checks kept (default 1000 each). */
  serviceJournalSize?: number;
  /**
   * Bounds of every call the mock makes (endpoint checks, claims, deliveries): concurrency, a
   * rate per target, and the journal of refused calls.
   */
  outbound?: OutboundOptions;
}

/**
 * The service side of the mock platform: claims (verification calls), identity connect, automatic
 * endpoint checks and webhook deliveries, over the same store and clock as the public API.
 */
export interface MockService {
  readonly claims: Claims;
  /** The verification calls of claims. */
  readonly calls: CallJournal;
  /** Every claim, whatever its outcome (refusals before any call included). */
  readonly claimJournal: ClaimJournal;
  readonly endpointChecks: EndpointChecks;
  readonly connect: ConnectService;
  readonly deliveries: Deliveries;
  /** The one gate of outgoing calls, and the calls it refused. */
  readonly outbound: Outbound;
  /** Runs the retries: by hand on a manual clock, on real timers otherwise. */
  readonly scheduler: Scheduler;
  /** The time limit of verification calls, in ms. */
  readonly verificationTimeoutMs: number;
  /**
   * Moves a manual clock forward by `ms`, running the retries that fall due and firing the
   * sprints' starts and ends (SPRINT_STARTED, SPRINT_ENDED) it passes, in time order.
   * Rejects with a TypeError when the platform runs on another clock.
   */
  advanceClock(ms: number): Promise<AdvanceReport>;
  /** Resolves when no first delivery try, endpoint check or claim is running. */
  idle(): Promise<void>;
  /** Cancels every scheduled retry (the real timers with them). */
  stop(): void;
}

/** Default number of claims, verification calls and endpoint checks kept. */
export const DEFAULT_SERVICE_JOURNAL_SIZE = 1000;

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`[@questkit/mock-platform] ${name} must be a positive integer`);
  }
  return value;
}

/**
 * Builds the service side over a platform's context, and hooks the endpoint checks into quest
 * creation (`context.hooks.questCreated`). Options are checked here, at start-up.
 *
 * @example
 * const service = createService(context, { verificationTimeoutMs: 500 });
 * const result = await service.claims.claim({ subdomain: 'demo', questId, userId });
 */
export function createService(context: MockContext, options: MockServiceOptions = {}): MockService {
  const timeoutMs = positiveInteger(
    'verificationTimeoutMs',
    options.verificationTimeoutMs,
    PLATFORM_TIMEOUT_MS,
  );
  const journalSize = positiveInteger(
    'serviceJournalSize',
    options.serviceJournalSize,
    DEFAULT_SERVICE_JOURNAL_SIZE,
  );
  const tracker = createBackgroundWork();
  const outbound = createOutbound(options.outbound, context.clock);
  const scheduler = createScheduler(context.clock, context.settings.onError);
  const webhooks = webhookSettings(options.webhooks);
  const deliveries = createDeliveries(
    context,
    scheduler,
    createSlots(webhooks.concurrency),
    outbound,
    tracker,
    webhooks,
  );
  const calls = createRecordedCalls(journalSize);
  const endpointChecks = createEndpointChecks(context, {
    tracker,
    timeoutMs,
    size: journalSize,
    outbound,
  });
  const connect = createConnectService(context, {
    baseUrl: options.baseUrl,
    callbackParam: options.connectCallbackParam,
  });
  const claimJournal = createRecordedClaims(journalSize);
  const claims = createClaims(context, {
    journal: calls,
    claimJournal,
    deliveries,
    tracker,
    timeoutMs,
    outbound,
  });
  if (options.endpointChecks !== false) {
    context.hooks = {
      ...context.hooks,
      questCreated: (quest, by) => endpointChecks.questCreated(quest, by),
    };
  }
  context.hooks = { ...context.hooks, ...eventHooks(context, deliveries) };
  const sprints = createSprintEvents(context, deliveries, scheduler.mode === 'timers');
  /** Retries in time order, with each sprint start and end fired at its own time on the way. */
  const advanceClock = async (ms: number): Promise<AdvanceReport> => {
    // The scheduler refuses a real clock and a bad ms with its own TypeError.
    if (scheduler.mode !== 'manual' || !Number.isFinite(ms) || ms < 0) return scheduler.advance(ms);
    const now = () => context.clock.now().getTime();
    const target = now() + ms;
    let ran = 0;
    sprints.fireDue();
    for (let edge = sprints.next(target); edge !== null; edge = sprints.next(target)) {
      ran += (await scheduler.advance(Math.max(0, edge - now()))).ran;
      sprints.fireDue();
    }
    const report = await scheduler.advance(Math.max(0, target - now()));
    return { ...report, ran: report.ran + ran };
  };
  return {
    claims,
    calls,
    claimJournal,
    endpointChecks,
    connect,
    deliveries,
    outbound,
    scheduler,
    verificationTimeoutMs: timeoutMs,
    advanceClock,
    idle: () => tracker.idle(),
    stop: () => {
      scheduler.stop();
      sprints.stop();
    },
  };
}
