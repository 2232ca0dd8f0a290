import type { z } from 'zod';
import { type VerificationRequest, VerificationRequestSchema } from './schemas/verification.js';

/** The outcome of reading a claim body: the typed claim, or what is wrong with it. */
export type ParsedClaim =
  | { ok: true; claim: VerificationRequest }
  | { ok: false; reason: 'bad_json' }
  | { ok: false; reason: 'invalid_request'; detail: string };

/** Parses JSON text as a claim; invalid JSON is `bad_json`. */
export function parseClaimText(text: string): ParsedClaim {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  return validateClaim(value);
}

/** Validates an already parsed JSON value as a claim; the detail names the first bad field. */
export function validateClaim(value: unknown): ParsedClaim {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: 'invalid_request', detail: 'the body must be a JSON object' };
  }
  const result = VerificationRequestSchema.safeParse(value);
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
