/**
 * Why an endpoint answered as it did: one stable code per step of the pipeline, for `onResult`
 * logs and metrics. Only `ok` is a 200; every other code is a 400.
 */
export const REASONS = [
  'ok',
  'failed',
  'method_not_allowed',
  'missing_key',
  'bad_key',
  'body_too_large',
  'unreadable_body',
  'bad_json',
  'invalid_request',
  'missing_account',
  'unknown_quest',
  'timeout',
  'handler_error',
] as const;

/** One of {@link REASONS}. */
export type Reason = (typeof REASONS)[number];

/** The member-facing messages a verifier sends for its own decisions; every one can be replaced. */
export interface VerifierMessages {
  methodNotAllowed: string;
  missingKey: string;
  badKey: string;
  bodyTooLarge: string;
  unreadableBody: string;
  badJson: string;
  /** `{detail}` is replaced by what is wrong, naming the field. */
  invalidRequest: string;
  /** `{accounts}` is replaced by the accounts to link, e.g. "Discord account and email address". */
  missingAccount: string;
  unknownQuest: string;
  timeout: string;
  handlerError: string;
}

/**
 * The platform shows these to the member next to the requestId, so they say what happened and
 * what to do, and never name a secret.
 */
export const DEFAULT_MESSAGES: VerifierMessages = {
  methodNotAllowed: 'This verification endpoint only accepts POST requests.',
  missingKey:
    'The verification endpoint did not receive the API key. Please let the community team know.',
  badKey:
    'The verification endpoint did not accept the API key of this task. Please let the community team know.',
  bodyTooLarge: 'The claim request is too large.',
  unreadableBody: 'The claim request could not be read. Please try again.',
  badJson: 'The claim request is not valid JSON.',
  invalidRequest: 'The claim request is invalid: {detail}.',
  missingAccount: 'Link your {accounts} to your profile, then claim again.',
  unknownQuest: 'This quest is not set up on the verification endpoint yet.',
  timeout: 'Verification took too long. Please try again in a minute.',
  handlerError: 'We could not verify this right now. Please try again later.',
};
