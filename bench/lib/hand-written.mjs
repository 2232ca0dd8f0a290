/**
 * What a competent developer writes by hand in every framework: a constant-time key compare with
 * node:crypto and a check of the five string fields. Shared by the hand-written endpoints so that
 * each framework file holds only that framework's own glue, as a real app would.
 */
import { timingSafeEqual } from 'node:crypto';
import { API_KEY } from './claim.mjs';

const expectedKey = Buffer.from(API_KEY);

/** Constant-time comparison of the received `x-api-key` with the configured key. */
export function keyMatches(received) {
  if (typeof received !== 'string') return false;
  const bytes = Buffer.from(received);
  return bytes.length === expectedKey.length && timingSafeEqual(bytes, expectedKey);
}

const FIELDS = ['userId', 'communityId', 'subdomain', 'questId', 'requestId'];

/** The field that is missing or not a string, or null when the claim is well formed. */
export function invalidField(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body';
  for (const field of FIELDS) {
    if (typeof body[field] !== 'string') return field;
  }
  return null;
}

/** Largest body the hand-written endpoints read (core's default too). */
export const MAX_BODY_BYTES = 64 * 1024;
