import type { Reason } from '../reasons.js';
import type { VerificationRequest } from '../schemas/verification.js';

/** What a step of the claim pipeline decided: the claim's outcome, with the claim once it is read. */
export interface Outcome {
  reason: Reason;
  message: string;
  claim?: VerificationRequest;
}
