import { compile } from 'zod/mini';
import { VerificationRequestSchema } from '../schemas/verification.js';

/**
 * The claim's schema compiled by zod into one function, for runtimes that allow it: the same
 * verdicts and issues (an invalid claim is checked again by the schema itself), at a tenth of the
 * cost. zod's compiler is 35 KB, so a Worker's bundle takes `claim-schema.ts` instead.
 */
export const claimSchema = compile(VerificationRequestSchema);
