import * as z from 'zod';

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

/** The member's linked accounts, present only for the methods the task configures. */
export const AccountsSchema = z.object({
  email: z.string().optional(),
  wallet: z.string().optional(),
  discord: z.object({ id: z.string(), handle: z.string() }).optional(),
  twitter: z.object({ id: z.string(), username: z.string() }).optional(),
  'svc-connect': z.string().optional(),
});
/** The member's linked accounts, present only for the methods the task configures. */
export type Accounts = z.infer<typeof AccountsSchema>;

/**
 * The body the platform POSTs to a verification endpoint. Unknown keys are tolerated (and
 * dropped from the parsed value) so a field the platform adds later never breaks an endpoint.
 */
export const VerificationRequestSchema = z.object({
  userId: z.string(),
  communityId: z.string(),
  subdomain: z.string(),
  questId: z.string(),
  requestId: z.string(),
  accounts: AccountsSchema.optional(),
});
/**
 * The body the platform POSTs to a verification endpoint. Unknown keys are tolerated (and
 * dropped from the parsed value) so a field the platform adds later never breaks an endpoint.
 */
export type VerificationRequest = z.infer<typeof VerificationRequestSchema>;

/** The only body a verification endpoint may answer with, on 200 and on 400 alike. */
export const VerificationResponseSchema = z.object({
  message: z.string().trim().min(1),
});
/** The only body a verification endpoint may answer with, on 200 and on 400 alike. */
export type VerificationResponse = z.infer<typeof VerificationResponseSchema>;

/** The only statuses a verification endpoint may answer with. */
export const VERIFICATION_STATUSES = [200, 400] as const;
/** A status a verification endpoint may answer with: 200 or 400. */
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** The platform's time limit for one verification call. */
export const PLATFORM_TIMEOUT_MS = 10_000;
