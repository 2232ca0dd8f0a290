// The verification call's fixed values, apart from its schemas: the verifier reads these, and a
// bundle that needs no schema of them should not carry zod for a list of names.

/**
 * The identification methods a task can configure. They share their names with the keys of
 * `accounts` in the verification request (a decision of ours: the contract names the methods in
 * prose only).
 */
export const IDENTIFICATION_METHODS = [
  'email',
  'wallet',
  'discord',
  'twitter',
  'svc-connect',
] as const;

/** One identification method of an API task: a key of `accounts`. */
export type IdentificationMethod = (typeof IDENTIFICATION_METHODS)[number];

/** The only statuses a verification endpoint may answer with. */
export const VERIFICATION_STATUSES = [200, 400] as const;
/** A status a verification endpoint may answer with: 200 or 400. */
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** The platform's time limit for one verification call. */
export const PLATFORM_TIMEOUT_MS = 10_000;
