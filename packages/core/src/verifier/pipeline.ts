import type { DoorRequest } from '../adapter/door.js';
import { frontDoor } from '../front-door/index.js';
import type { VerifierConfig } from './options.js';
import { decideSteps, type Outcome } from './steps.js';
import type { Decision } from './types.js';

/** A decision, and whether its answer closes the connection. */
export type Decided = Decision & { close: boolean };

/**
 * The steps of the platform's contract, in order: method and key (before any byte of the body
 * is read), the body within its size limit and the deadline, the claim, its route and accounts,
 * and the handler under the deadline. Then whether the answer closes the connection, and
 * `onResult`. Never rejects: every failure is an answer.
 */
export async function decideClaim(config: VerifierConfig, request: DoorRequest): Promise<Decided> {
  let outcome: Outcome & { close: boolean };
  try {
    outcome = await runSteps(config, request);
  } catch (error) {
    // Unreachable by design; kept so that even a bug in questkit answers 400, not a crash.
    config.report(error, { reason: 'handler_error' });
    outcome = { reason: 'handler_error', message: config.messages.handlerError, close: true };
  }
  const status = outcome.reason === 'ok' ? 200 : 400;
  const { claim } = outcome;
  config.notify({
    reason: outcome.reason,
    status,
    message: outcome.message,
    requestId: claim?.requestId,
    questId: claim?.questId,
    userId: claim?.userId,
    durationMs: Date.now() - (request.receivedAt ?? Date.now()),
  });
  return {
    status,
    body: { message: outcome.message },
    reason: outcome.reason,
    close: outcome.close,
  };
}

/** The steps, then whether the answer closes the connection (a body left unread). */
async function runSteps(
  config: VerifierConfig,
  request: DoorRequest,
): Promise<Outcome & { close: boolean }> {
  const door = frontDoor(request, { timeoutMs: config.timeoutMs, maxBytes: config.maxBodyBytes });
  const outcome = await decideSteps(config, door, request);
  return { ...outcome, close: await door.close() };
}
