import { explainRefusedDelivery, type ObservedAnswer } from '@questkit/core/api';
import { endpointText } from './endpoint-text.js';

// The receiver's own words say which of its checks refused: its secret, or the delivery's form.
const ABOUT_SECRET = /secret/i;
const ABOUT_FORM =
  /sign|hmac|header|auth|token|field|missing|required|invalid|expected|event|payload|body|data|type|json|schema|format|unknown|user-agent/i;

/** What to check when the receiver says the secret is wrong. */
export const WRONG_SECRET_GIVEN =
  "The receiver says the secret is wrong: is --secret the webhook's own secret (the platform shows it with the webhook)? A receiver that reads the secret from the body, as the platform sends it, answers 200 once they match.";

/** Whether a receiver's refusal is about the secret itself. */
export function refusesSecret(said: string | undefined): boolean {
  return said !== undefined && ABOUT_SECRET.test(said);
}

/**
 * The explanation of how the platform makes a delivery, for a refusal about its form (or one
 * without words to tell): never when the receiver says its secret differs, nor when it says
 * something else (a failure of its own).
 */
export function formatExplanation(answer: ObservedAnswer): string | null {
  const said = endpointText(answer.body);
  if (refusesSecret(said)) return null;
  if (said !== undefined && !ABOUT_FORM.test(said)) return null;
  return explainRefusedDelivery(answer);
}
