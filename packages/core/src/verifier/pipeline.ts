import type { z } from 'zod/mini';
import { claimSchema } from '#claim-schema';
import type { DoorRequest } from '../adapter/door.js';
import { type BodyRead, type FrontDoor, frontDoor } from '../front-door/index.js';
import { normalizeMessage } from '../messages.js';
import type { VerifierMessages } from '../reasons.js';
import type { Accounts, VerificationRequest } from '../schemas/verification.js';
import {
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
} from '../schemas/verification-constants.js';
import { runHandler } from './handler.js';
import type { VerifierConfig } from './options.js';
import type { Outcome } from './outcome.js';
import type { Decision } from './types.js';

/** A decision, and whether its answer closes the connection. */
export type Decided = Decision & { close: boolean };

/**
 * Decides one claim request by the steps of the platform's contract (see {@link runSteps}), then
 * whether the answer closes the connection, and tells `onResult`. Never rejects: every failure,
 * a request of the wrong shape from untyped JavaScript included, is an answer.
 */
export async function decideClaim(config: VerifierConfig, request: DoorRequest): Promise<Decided> {
  let outcome: Outcome;
  let close: boolean;
  try {
    // The front door counts the deadline from the request's arrival.
    const door = frontDoor(request, config.limits);
    outcome = await runSteps(config, door, request);
    // Most claims leave nothing on the wire: no drain to wait for.
    close = door.leftOnWire() && (await door.close());
  } catch (error) {
    // Unreachable by design; kept so that even a bug in questkit answers 400, not a crash.
    config.report(error, { reason: 'handler_error' });
    outcome = { reason: 'handler_error', message: config.messages.handlerError };
    close = true;
  }
  const status = outcome.reason === 'ok' ? 200 : 400;
  const { claim } = outcome;
  // An optional call: without an `onResult` hook the event is not even built.
  config.notify?.({
    reason: outcome.reason,
    status,
    message: outcome.message,
    requestId: claim?.requestId,
    questId: claim?.questId,
    userId: claim?.userId,
    durationMs: Date.now() - (request.receivedAt ?? Date.now()),
  });
  return { status, body: { message: outcome.message }, reason: outcome.reason, close };
}

/**
 * The steps of the platform's contract, in order: method and key (before any byte of the body
 * is read), the body within its size limit and the deadline, the claim, its route and accounts,
 * and the handler under the deadline. Each refusal is an outcome.
 */
async function runSteps(
  config: VerifierConfig,
  door: FrontDoor,
  request: DoorRequest,
): Promise<Outcome> {
  const { messages } = config;
  // 1. Method: the platform only POSTs.
  if (door.method !== 'POST') {
    return { reason: 'method_not_allowed', message: messages.methodNotAllowed };
  }
  // 2. Key, before any byte of the body is read.
  if (config.acceptsKey) {
    const received = request.header('x-api-key');
    if (received === undefined || received === '') {
      return { reason: 'missing_key', message: messages.missingKey };
    }
    if (!config.acceptsKey(received)) return { reason: 'bad_key', message: messages.badKey };
  }
  // 3-6. The body, read within the limits, parsed and validated.
  const read = claimOf(await door.read(), messages);
  if ('reason' in read) return read;
  const { claim } = read;
  // 7-8. The quest's route, and the accounts it needs.
  const route = config.routes.get(claim.questId) ?? config.fallback;
  if (!route) return { reason: 'unknown_quest', message: messages.unknownQuest, claim };
  const missing = missingAccounts(claim.accounts ?? {}, route.requires);
  if (missing.length > 0) {
    const message = messages.missingAccount.replace('{accounts}', listAccounts(missing));
    return { reason: 'missing_account', message, claim };
  }
  // 9. The handler, under the deadline (none is left when reading the body took it all).
  if (Date.now() >= door.deadline) return { reason: 'timeout', message: messages.timeout, claim };
  return runHandler(config, route, claim, door.deadline);
}

/** Steps 3 to 6: the claim in a body read within the size limit and the deadline. */
function claimOf(
  read: BodyRead,
  messages: VerifierMessages,
): { claim: VerificationRequest } | Outcome {
  if (!read.ok) {
    if (read.reason === 'too_large') {
      return { reason: 'body_too_large', message: messages.bodyTooLarge };
    }
    if (read.reason === 'timeout') return { reason: 'timeout', message: messages.timeout };
    if (read.reason === 'bad_encoding') return { reason: 'bad_json', message: messages.badJson };
    return { reason: 'unreadable_body', message: messages.unreadableBody };
  }
  const parsed = 'parsed' in read ? validateClaim(read.parsed) : parseClaimText(read.text);
  if (parsed.ok) return { claim: parsed.claim };
  if (parsed.reason === 'bad_json') return { reason: 'bad_json', message: messages.badJson };
  const text = messages.invalidRequest.replace('{detail}', parsed.detail);
  return { reason: 'invalid_request', message: normalizeMessage(text, messages.badJson) };
}

/** The outcome of reading a claim body: the typed claim, or what is wrong with it. */
type ParsedClaim =
  | { ok: true; claim: VerificationRequest }
  | { ok: false; reason: 'bad_json' }
  | { ok: false; reason: 'invalid_request'; detail: string };

/** Parses JSON text as a claim; invalid JSON is `bad_json`. */
function parseClaimText(text: string): ParsedClaim {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  return validateClaim(value);
}

/** Validates an already parsed JSON value as a claim; the detail names the first bad field. */
function validateClaim(value: unknown): ParsedClaim {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'invalid_request', detail: 'the body must be a JSON object' };
  }
  const result = claimSchema.safeParse(value);
  if (result.success) return { ok: true, claim: result.data };
  return {
    ok: false,
    reason: 'invalid_request',
    detail: describeIssue(result.error.issues[0], value),
  };
}

function describeIssue(issue: z.core.$ZodIssue | undefined, input: unknown): string {
  if (!issue) return 'unknown problem';
  const path = issue.path.map(String).join('.');
  if (issue.code !== 'invalid_type') return `${path || 'body'}: ${issue.message}`;
  const value = issue.path.reduce<unknown>(
    (node, key) =>
      typeof node === 'object' && node !== null && Object.hasOwn(node, key)
        ? (node as Record<PropertyKey, unknown>)[key as PropertyKey]
        : undefined,
    input,
  );
  const expected = issue.expected === 'object' ? 'an object' : `a ${issue.expected}`;
  return value === undefined ? `${path} is missing` : `${path} must be ${expected}`;
}

const NONE_MISSING: readonly IdentificationMethod[] = [];

/** The methods in `required` whose account the claim lacks, in the contract's order. */
function missingAccounts(
  accounts: Accounts,
  required: ReadonlySet<IdentificationMethod>,
): readonly IdentificationMethod[] {
  // Most quests require no account: no list to filter, nothing to allocate, per claim.
  if (required.size === 0) return NONE_MISSING;
  return IDENTIFICATION_METHODS.filter(
    (method) => required.has(method) && !hasAccount(accounts, method),
  );
}

function hasAccount(accounts: Accounts, method: IdentificationMethod): boolean {
  const value = accounts[method];
  if (typeof value === 'string') return value.trim() !== '';
  return value !== undefined;
}

const ACCOUNT_LABELS: Record<IdentificationMethod, string> = {
  email: 'email address',
  wallet: 'wallet',
  discord: 'Discord account',
  twitter: 'X (Twitter) account',
  'svc-connect': 'community account (Connect)',
};

/** "Discord account and email address": the accounts to link, as the member reads them. */
function listAccounts(methods: readonly IdentificationMethod[]): string {
  const labels = methods.map((method) => ACCOUNT_LABELS[method]);
  return labels.length === 1
    ? labels[0]!
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
