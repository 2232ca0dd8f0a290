import { DEFAULT_MESSAGES, type VerifierMessages } from './reasons.js';
/** Longest message we send; the platform shows it to a member next to the requestId. */
export const MAX_MESSAGE_LENGTH = 500;

// C0 and C1 control characters, DEL, and the bidi overrides that can disguise text on screen.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;

// Anything the slow path would change: an unprintable character, white space other than a single
// space, two spaces in a row, or a space at either end.
const NEEDS_WORK =
  /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]|[^\S ]| {2}|^ | $/;

/**
 * Makes a message safe to show a member: unprintable characters become spaces, runs of spaces
 * fold into one, the ends are trimmed and the length is bounded (without splitting a surrogate
 * pair). An empty result, or a value that is not a string, gives `fallback`.
 */
export function normalizeMessage(message: unknown, fallback: string): string {
  if (typeof message !== 'string') return fallback;
  // Most messages are already clean: one regex test instead of two replacements and a trim.
  if (message !== '' && message.length <= MAX_MESSAGE_LENGTH && !NEEDS_WORK.test(message)) {
    return message;
  }
  const clean = message.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
  if (clean === '') return fallback;
  if (clean.length <= MAX_MESSAGE_LENGTH) return clean;
  const chars = Array.from(clean);
  if (chars.length <= MAX_MESSAGE_LENGTH) return clean;
  return `${chars
    .slice(0, MAX_MESSAGE_LENGTH - 1)
    .join('')
    .trimEnd()}…`;
}

/** Normalizes every message of the `messages` option once, so none can carry control characters or be empty. */
export function readMessages(custom: Partial<VerifierMessages> | undefined): VerifierMessages {
  const messages = { ...DEFAULT_MESSAGES };
  for (const key of Object.keys(messages) as (keyof VerifierMessages)[]) {
    messages[key] = normalizeMessage(custom?.[key], DEFAULT_MESSAGES[key]);
  }
  return messages;
}
