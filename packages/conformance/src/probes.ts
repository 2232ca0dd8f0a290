import { IDENTIFICATION_METHODS, type IdentificationMethod } from '@questkit/core';
import { listSchemaFields } from './schema-fields.js';
import type { Tier } from './types.js';

/**
 * The body of a probe. `claim` is the well-formed claim of the run (its member and accounts),
 * changed by `omit` (dotted paths to delete), `set` (dotted paths to overwrite) and `padBytes`
 * (an extra field of that many bytes); `text` is sent exactly; `none` sends no body.
 */
export type ProbeBody =
  | {
      kind: 'claim';
      omit?: readonly string[];
      set?: Readonly<Record<string, unknown>>;
      /** Keep only these identification methods in `accounts`. */
      onlyAccounts?: readonly IdentificationMethod[];
      padBytes?: number;
    }
  | { kind: 'text'; text: string }
  | { kind: 'none' };

/** What a probe sends. Every field has a default: a POST of the well-formed claim with the key. */
export interface ProbeRequest {
  method?: 'POST' | 'GET';
  /** `valid`: the run's key (none when the run has none); `missing`: no header; `wrong`: a made-up key. */
  apiKey?: 'valid' | 'missing' | 'wrong';
  /** `null` sends no content-type. */
  contentType?: string | null;
  body?: ProbeBody;
}

/**
 * The answer a probe calls for, on top of the platform's three checks that every answer must pass.
 * - `claim`: 200 or 400 (a business answer).
 * - `any`: 200 or 400.
 * - `rejected`: 400; a 200 is `accepted` (a failure or a warning).
 * - `tolerated`: the same status as the well-formed claim.
 */
export type ProbeExpectation =
  | { kind: 'claim' }
  | { kind: 'any' }
  | { kind: 'rejected'; accepted: 'fail' | 'warn'; why: string }
  | { kind: 'tolerated' };

/** One scenario of the battery: data, read by the runner (and by anyone who wants the battery). */
export interface Probe {
  id: string;
  title: string;
  group: 'claim' | 'auth' | 'body' | 'fields' | 'accounts' | 'http' | 'load';
  /** Whether the platform ever sends this request; the runner moves shape probes (below). */
  tier: Tier;
  /**
   * The `accounts` shape the probe sends, as the identification methods of a task that would
   * send it (`[]`: no `accounts`). A shape probe is a platform probe when the run names no
   * identification methods or names exactly these; otherwise the platform never sends it.
   */
  shape?: readonly IdentificationMethod[];
  request: ProbeRequest;
  expect: ProbeExpectation;
  /** `single` sends once; `burst` sends the run's burst count at once; `series` one after another. */
  mode?: 'single' | 'burst' | 'series';
  /** Skipped when the run has no API key. */
  needsApiKey?: boolean;
  /** When the platform sends this call, in the user's words: said after a status it refuses. */
  scenario?: string;
}

/** Size of the oversize probe: far beyond any claim, small enough to send quickly. */
export const OVERSIZE_BYTES = 1_048_576;

/** The well-formed claim; the first probe, and the baseline `tolerated` probes compare with. */
export const CLAIM_PROBE_ID = 'claim.well-formed';

// When the platform sends a drifted key, in the words of the person who changes it.
const DRIFTED_KEY =
  "The platform sends a claim with another key (or none) whenever the task's key and your endpoint's differ, as after either was changed: members see the answer, so refuse it with 400 {message}";

const BASE_PROBES: readonly Probe[] = [
  {
    id: CLAIM_PROBE_ID,
    title: 'A well-formed claim gets a 200 or 400 answer',
    group: 'claim',
    tier: 'platform',
    request: {},
    expect: { kind: 'claim' },
  },
  {
    id: 'auth.missing-key',
    title: 'A claim without X-Api-Key (a drifted key) gets 200 or 400 {message}',
    group: 'auth',
    tier: 'platform',
    request: { apiKey: 'missing' },
    // Whether it is refused is a member verdict (member.api-key): the platform only needs an answer.
    expect: { kind: 'any' },
    needsApiKey: true,
    scenario: DRIFTED_KEY,
  },
  {
    id: 'auth.wrong-key',
    title: 'A claim with a wrong X-Api-Key (a drifted key) gets 200 or 400 {message}',
    group: 'auth',
    tier: 'platform',
    request: { apiKey: 'wrong' },
    expect: { kind: 'any' },
    needsApiKey: true,
    scenario: DRIFTED_KEY,
  },
  {
    id: 'body.malformed-json',
    title: 'A body that is not JSON is rejected with 400 {message}',
    group: 'body',
    tier: 'hardening',
    request: { body: { kind: 'text', text: '{"userId": "member", "questId": ' } },
    expect: {
      kind: 'rejected',
      accepted: 'warn',
      why: 'accepted a body that is not JSON as a claim',
    },
  },
  {
    id: 'body.empty',
    title: 'An empty body is rejected with 400 {message}',
    group: 'body',
    tier: 'hardening',
    request: { body: { kind: 'text', text: '' } },
    expect: { kind: 'rejected', accepted: 'warn', why: 'accepted an empty body as a claim' },
  },
  {
    id: 'body.oversize',
    title: 'An oversize body (1 MiB) gets a 200 or 400 {message}, not 413 or a reset',
    group: 'body',
    tier: 'hardening',
    request: { body: { kind: 'claim', padBytes: OVERSIZE_BYTES } },
    expect: { kind: 'any' },
  },
  {
    id: 'fields.unknown-extra',
    title: 'Unknown extra fields are tolerated (same answer as the well-formed claim)',
    group: 'fields',
    tier: 'hardening',
    request: { body: { kind: 'claim', set: { questkitExtra: { addedBy: 'a newer platform' } } } },
    expect: { kind: 'tolerated' },
  },
  {
    id: 'fields.unknown-account',
    title: 'An unknown identification method in accounts is tolerated',
    group: 'fields',
    tier: 'hardening',
    request: { body: { kind: 'claim', set: { 'accounts.questkitExtra': 'a new method' } } },
    expect: { kind: 'tolerated' },
  },
];

/** Probes for each field of the request schema: missing (when required) and of the wrong type. */
function schemaProbes(): Probe[] {
  const probes: Probe[] = [];
  const fields = listSchemaFields();
  for (const field of fields.filter((f) => f.required)) {
    probes.push({
      id: `fields.missing.${field.path}`,
      title: `A claim without ${field.path} is rejected with 400`,
      group: 'fields',
      tier: 'hardening',
      request: { body: { kind: 'claim', omit: [field.path] } },
      expect: { kind: 'rejected', accepted: 'warn', why: `accepted a claim without ${field.path}` },
    });
  }
  for (const field of fields) {
    probes.push({
      id: `fields.wrong-type.${field.path}`,
      title: `A claim with ${field.path} of the wrong type is rejected with 400`,
      group: 'fields',
      tier: 'hardening',
      request: { body: { kind: 'claim', set: { [field.path]: field.wrongValue } } },
      expect: {
        kind: 'rejected',
        accepted: 'warn',
        why: `accepted a claim whose ${field.path} is ${JSON.stringify(field.wrongValue)}`,
      },
    });
  }
  return probes;
}

function accountProbes(): Probe[] {
  return [
    {
      id: 'accounts.absent',
      title: 'A claim without accounts (no identification configured) gets 200 or 400',
      group: 'accounts',
      tier: 'platform',
      shape: [],
      request: { body: { kind: 'claim', omit: ['accounts'] } },
      expect: { kind: 'any' },
    },
    {
      id: 'accounts.empty',
      title: 'A claim with empty accounts gets 200 or 400',
      group: 'accounts',
      // The platform sends accounts only when a method is configured, so never an empty one.
      tier: 'hardening',
      request: { body: { kind: 'claim', onlyAccounts: [] } },
      expect: { kind: 'any' },
    },
    ...IDENTIFICATION_METHODS.map(
      (method): Probe => ({
        id: `accounts.only.${method}`,
        title: `A claim whose accounts carry only ${method} gets 200 or 400`,
        group: 'accounts',
        tier: 'platform',
        shape: [method],
        request: { body: { kind: 'claim', onlyAccounts: [method] } },
        expect: { kind: 'any' },
      }),
    ),
  ];
}

const HTTP_AND_LOAD_PROBES: readonly Probe[] = [
  {
    id: 'http.wrong-content-type',
    title: 'A claim sent as text/plain gets 200 or 400 {message}, not 415',
    group: 'http',
    tier: 'hardening',
    request: { contentType: 'text/plain' },
    expect: { kind: 'any' },
  },
  {
    id: 'http.method-get',
    title: 'A GET gets 400 {message}, not 404 or 405',
    group: 'http',
    tier: 'hardening',
    request: { method: 'GET', contentType: null, body: { kind: 'none' } },
    expect: { kind: 'rejected', accepted: 'warn', why: 'answered a GET without a claim with 200' },
  },
  {
    id: 'load.burst',
    title: 'A burst of concurrent claims all get 200 or 400 {message} in time',
    group: 'load',
    tier: 'members',
    request: {},
    expect: { kind: 'any' },
    mode: 'burst',
  },
  {
    id: 'load.latency',
    title: 'A series of claims stays well under the time limit (p50, p95, max)',
    group: 'load',
    tier: 'members',
    request: {},
    expect: { kind: 'any' },
    mode: 'series',
  },
];

/**
 * The battery, in the order it runs: the well-formed claim first (later probes compare with it),
 * the load probes last. Missing-field and wrong-type probes come from `VerificationRequestSchema`.
 * The mock platform and benchmarks can reuse it as data.
 */
export const PROBES: readonly Probe[] = [
  ...BASE_PROBES,
  ...schemaProbes(),
  ...accountProbes(),
  ...HTTP_AND_LOAD_PROBES,
];
