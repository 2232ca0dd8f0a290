import { IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import { PLATFORM_TIMEOUT_MS, SLOW_WARNING_MS } from '@questkit/core/api';
import type { Limits } from './judge.js';
import { fetchTransport, type Transport } from './send.js';
import { type ConformanceOptions, TIERS, type Tier } from './types.js';

/** Concurrent claims of the burst probe when the run names no count. */
export const DEFAULT_BURST = 10;
/** Sequential claims of the latency series when the run names no count. */
export const DEFAULT_SAMPLES = 10;
/** Probes in flight at once when the run names no bound: a small endpoint takes it. */
export const DEFAULT_CONCURRENCY = 8;
/**
 * A run ends within this many time limits, however slowly the endpoint answers: probes start only
 * while they can end by then (29 s with the platform's 10 s limit).
 */
export const RUN_BUDGET_LIMITS = 2.9;

// Bounds that keep a mistyped count from flooding an endpoint.
const MAX_REPEAT = 1000;
const MAX_CONCURRENCY = 64;

/** A run's options, checked and with every default filled in. */
export interface Settings extends Limits {
  options: ConformanceOptions;
  apiKey?: string;
  identifications?: readonly IdentificationMethod[];
  tiers: readonly Tier[];
  strict: boolean;
  showSecrets: boolean;
  burst: number;
  samples: number;
  concurrency: number;
  /** The whole run ends within this many ms. */
  budgetMs: number;
  transport: Transport;
}

/** The options checked, with defaults; a TypeError names the first invalid one. */
export function resolveSettings(options: ConformanceOptions): Settings {
  if (typeof options !== 'object' || options === null) invalid('options are required');
  if (!isHttpUrl(options.url)) invalid('url must be an absolute http(s) URL');
  checkKey(options);
  const identifications = checkIdentifications(options.identifications);
  const tiers = options.tiers ?? TIERS;
  if (!Array.isArray(tiers) || tiers.some((tier) => !(TIERS as readonly string[]).includes(tier))) {
    invalid(`tiers must be a list of ${TIERS.join(', ')}`);
  }
  if (options.expect !== undefined && options.expect !== 'pass' && options.expect !== 'fail') {
    invalid("expect must be 'pass' or 'fail'");
  }
  const timeoutMs = count('timeoutMs', options.timeoutMs ?? PLATFORM_TIMEOUT_MS);
  const slowMs = count(
    'slowMs',
    options.slowMs ?? Math.round((timeoutMs * SLOW_WARNING_MS) / PLATFORM_TIMEOUT_MS),
  );
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    invalid('fetch must be a function (request) => Promise<Response>');
  }
  checkConnect(options);
  return {
    options,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    ...(identifications !== undefined ? { identifications } : {}),
    tiers,
    strict: options.strict === true,
    showSecrets: options.showSecrets === true,
    timeoutMs,
    slowMs,
    burst: count('burst', options.burst ?? DEFAULT_BURST, MAX_REPEAT),
    samples: count('samples', options.samples ?? DEFAULT_SAMPLES, MAX_REPEAT),
    concurrency: count('concurrency', options.concurrency ?? DEFAULT_CONCURRENCY, MAX_CONCURRENCY),
    budgetMs: Math.round(RUN_BUDGET_LIMITS * timeoutMs),
    transport: fetchTransport(options.fetch),
  };
}

function invalid(message: string): never {
  throw new TypeError(`[@questkit/conformance] ${message}`);
}

function checkKey(options: ConformanceOptions): void {
  const { apiKey } = options;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === '')) {
    invalid('apiKey must be a non-empty string when given');
  }
  if (options.noApiKey === true && apiKey !== undefined) {
    invalid('apiKey and noApiKey exclude each other: the task has a key or it has none');
  }
}

function checkIdentifications(
  identifications: ConformanceOptions['identifications'],
): readonly IdentificationMethod[] | undefined {
  if (identifications === undefined) return undefined;
  if (!Array.isArray(identifications)) invalid('identifications must be an array');
  for (const method of identifications) {
    if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
      invalid(
        `identifications: unknown method ${JSON.stringify(method)}; use ${IDENTIFICATION_METHODS.join(', ')}`,
      );
    }
  }
  if (new Set(identifications).size !== identifications.length) {
    invalid('identifications: a method is named twice');
  }
  return identifications;
}

function checkConnect(options: ConformanceOptions): void {
  const { connect } = options;
  if (!connect) return;
  if (!isHttpUrl(connect.url)) invalid('connect.url must be an absolute http(s) URL');
  if (typeof connect.secret !== 'string' || connect.secret === '') {
    invalid('connect.secret must be a non-empty string');
  }
  if (connect.callback !== undefined && !isHttpUrl(connect.callback)) {
    invalid('connect.callback must be an absolute http(s) URL');
  }
}

/** A positive integer up to `max`, or a TypeError naming the option. */
function count(name: string, value: unknown, max?: number): number {
  const ok = typeof value === 'number' && Number.isInteger(value) && value > 0;
  if (!ok || (max !== undefined && value > max)) {
    invalid(
      max === undefined ? `${name} must be a positive integer` : `${name} must be 1 to ${max}`,
    );
  }
  return value as number;
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
