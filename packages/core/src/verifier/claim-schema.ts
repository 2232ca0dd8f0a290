/**
 * The claim's schema as the verifier checks claims with it: as written, where a bundle's size
 * counts (a Worker, a browser). Node and Bun import `claim-schema.node.ts` in its place,
 * through the package's `#claim-schema` import and its `node` condition.
 */
export { VerificationRequestSchema as claimSchema } from '../schemas/verification.js';
