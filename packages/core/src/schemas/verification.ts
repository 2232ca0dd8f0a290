import * as z from 'zod/mini';

// The claim's schemas are written with zod's mini API: its functions are imported one by one, so
// a Worker that bundles the verifier ships the few it uses, not all of zod (bench/README.md,
// "Where the time goes"). They still are the one source of the claim's type, its validation and
// the judge's probes; JSON Schema comes from them as from the others (`z.toJSONSchema`).

/** The member's linked accounts, present only for the methods the task configures. */
export const AccountsSchema = z.object({
  email: z.optional(z.string()),
  wallet: z.optional(z.string()),
  discord: z.optional(z.object({ id: z.string(), handle: z.string() })),
  twitter: z.optional(z.object({ id: z.string(), username: z.string() })),
  'svc-connect': z.optional(z.string()),
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
  accounts: z.optional(AccountsSchema),
});
/**
 * The body the platform POSTs to a verification endpoint. Unknown keys are tolerated (and
 * dropped from the parsed value) so a field the platform adds later never breaks an endpoint.
 */
export type VerificationRequest = z.infer<typeof VerificationRequestSchema>;

/** The only body a verification endpoint may answer with, on 200 and on 400 alike. */
export const VerificationResponseSchema = z.object({
  message: z.string().check(z.trim(), z.minLength(1)),
});
/** The only body a verification endpoint may answer with, on 200 and on 400 alike. */
export type VerificationResponse = z.infer<typeof VerificationResponseSchema>;
