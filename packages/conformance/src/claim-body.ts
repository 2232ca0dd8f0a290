import {
  type Accounts,
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  type VerificationRequest,
} from '@questkit/core';
import type { Probe, ProbeBody } from './probes.js';
import type { OutgoingRequest } from './send.js';
import type { ClaimMember, ConformanceOptions } from './types.js';

/** The key the wrong-key probe sends. */
export const WRONG_API_KEY = 'questkit-conformance-wrong-key';

/** A synthetic value for every identification method, so each account shape gets exercised. */
export const SAMPLE_ACCOUNTS: Required<Pick<Accounts, IdentificationMethod>> = {
  email: 'member@example.com',
  wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
  discord: { id: '80351110224678912', handle: 'questkit_member' },
  twitter: { id: '783214', username: 'questkit_member' },
  'svc-connect': 'questkit-conformance-member',
};

/** The member of a run when none is given: synthetic ids that no real platform uses. */
export const DEFAULT_MEMBER: Required<ClaimMember> = {
  userId: '00000000-0000-4000-8000-00000000c0de',
  communityId: '00000000-0000-4000-8000-00000000c0c0',
  subdomain: 'questkit-conformance',
  questId: '00000000-0000-4000-8000-00000000a0a0',
  accounts: SAMPLE_ACCOUNTS,
};

/** The field that pads the oversize probe; filled with `x` so the curl line can regenerate it. */
export const PADDING_FIELD = 'questkitPadding';

/**
 * The well-formed claim of a member, with a fresh requestId as the platform makes per claim.
 * Given the task's identification methods, it is shaped as the platform shapes it: `accounts`
 * only when a method is configured, with each configured method (the member's value, else a
 * sample).
 */
export function buildClaim(
  member: ClaimMember | undefined,
  requestId: string,
  identifications?: readonly IdentificationMethod[],
): VerificationRequest {
  const claim: VerificationRequest = {
    userId: member?.userId ?? DEFAULT_MEMBER.userId,
    communityId: member?.communityId ?? DEFAULT_MEMBER.communityId,
    subdomain: member?.subdomain ?? DEFAULT_MEMBER.subdomain,
    questId: member?.questId ?? DEFAULT_MEMBER.questId,
    requestId,
  };
  const accounts = member?.accounts ?? DEFAULT_MEMBER.accounts;
  if (identifications === undefined) claim.accounts = structuredClone(accounts);
  else if (identifications.length > 0) claim.accounts = shapeAccounts(accounts, identifications);
  return claim;
}

/** `accounts` carrying exactly these methods: the member's value of each, else its sample. */
function shapeAccounts(accounts: Accounts, methods: readonly IdentificationMethod[]): Accounts {
  const from = accounts as Record<string, unknown>;
  const samples = SAMPLE_ACCOUNTS as Record<string, unknown>;
  return Object.fromEntries(
    methods.map((method) => [method, structuredClone(from[method] ?? samples[method])]),
  ) as Accounts;
}

/** The body text of a probe, or why it cannot be built from this member's claim. */
export type BuiltBody = { ok: true; text: string | undefined } | { ok: false; reason: string };

/**
 * Builds the body a probe sends from the run's well-formed claim; `identifications`, the task's
 * methods when the run names them, says why a path the claim lacks is not probed.
 */
export function buildBody(
  spec: ProbeBody,
  claim: VerificationRequest,
  identifications?: readonly IdentificationMethod[],
): BuiltBody {
  if (spec.kind === 'none') return { ok: true, text: undefined };
  if (spec.kind === 'text') return { ok: true, text: spec.text };

  const body = structuredClone(claim) as Record<string, unknown>;
  if (spec.onlyAccounts) {
    // A method the member has not linked takes its sample value: the shape is what is probed.
    body.accounts = shapeAccounts(
      (isObject(body.accounts) ? body.accounts : {}) as Accounts,
      spec.onlyAccounts,
    );
  }
  for (const path of spec.omit ?? []) {
    const parent = parentOf(body, path);
    if (!parent) return { ok: false, reason: missingParent(path, identifications) };
    delete parent.object[parent.key];
  }
  for (const [path, value] of Object.entries(spec.set ?? {})) {
    const parent = parentOf(body, path);
    if (!parent) return { ok: false, reason: missingParent(path, identifications) };
    parent.object[parent.key] = value;
  }
  let text = JSON.stringify(body);
  if (spec.padBytes !== undefined) {
    // Spliced in as text: building a megabyte string inside an object and stringifying it again
    // would double the memory for nothing.
    const padding = `,"${PADDING_FIELD}":"${'x'.repeat(Math.max(0, spec.padBytes))}"}`;
    text = text.slice(0, -1) + padding;
  }
  return { ok: true, text };
}

function parentOf(
  root: Record<string, unknown>,
  path: string,
): { object: Record<string, unknown>; key: string } | null {
  const keys = path.split('.');
  const key = keys.pop()!;
  let object: unknown = root;
  for (const step of keys) {
    object = isObject(object) ? object[step] : undefined;
  }
  return isObject(object) ? { object, key } : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function missingParent(path: string, identifications?: readonly IdentificationMethod[]): string {
  const parent = path.split('.').slice(0, -1).join('.');
  // The task's own configuration leaves it out: the platform never sends it for this task.
  const method = parent.split('.')[1];
  if (
    identifications !== undefined &&
    (method === undefined || !identifications.includes(method as IdentificationMethod))
  ) {
    return `not part of this task's claims: its identification methods (${identifications.length === 0 ? 'none' : identifications.join(', ')}) put no ${parent} in them`;
  }
  return `the claim has no ${parent}; give the member accounts that include it to run this check`;
}

/** The identification methods the well-formed claim's `accounts` carries. */
export function claimShape(
  member: ClaimMember | undefined,
  identifications?: readonly IdentificationMethod[],
): IdentificationMethod[] {
  const claim = buildClaim(member, '', identifications);
  return IDENTIFICATION_METHODS.filter((method) => claim.accounts?.[method] !== undefined);
}

/** A probe's request, or why it cannot be built from this member's claim. */
export type BuiltRequest = { ok: true; request: OutgoingRequest } | { ok: false; reason: string };

/**
 * The request a probe sends: a fresh well-formed claim (a new requestId, as the platform makes per
 * claim) changed as the probe says, with the run's key, a wrong one or none.
 */
export function buildRequest(
  probe: Probe,
  run: Pick<ConformanceOptions, 'url' | 'apiKey' | 'member'>,
  identifications?: readonly IdentificationMethod[],
): BuiltRequest {
  const spec = probe.request;
  const claim = buildClaim(run.member, crypto.randomUUID(), identifications);
  const body = buildBody(spec.body ?? { kind: 'claim' }, claim, identifications);
  if (!body.ok) return body;
  const headers: Record<string, string> = {};
  const contentType = spec.contentType === undefined ? 'application/json' : spec.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const keyMode = spec.apiKey ?? 'valid';
  const { apiKey } = run;
  if (keyMode === 'valid' && apiKey !== undefined) headers['x-api-key'] = apiKey;
  if (keyMode === 'wrong') {
    headers['x-api-key'] = apiKey === WRONG_API_KEY ? `${WRONG_API_KEY}-2` : WRONG_API_KEY;
  }
  const request: OutgoingRequest = {
    method: spec.method ?? 'POST',
    url: run.url,
    headers,
  };
  if (body.text !== undefined) request.body = body.text;
  return { ok: true, request };
}
