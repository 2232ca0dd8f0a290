import type { DoorAnswer } from '../adapter/door.js';

const HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

/** A receiver's answer: JSON `{message}`, never an error's own text. */
export function webhookAnswer(
  status: 200 | 400 | 401 | 409 | 500,
  message: string,
  close = false,
): DoorAnswer {
  return { status, headers: HEADERS, cookies: [], body: JSON.stringify({ message }), close };
}
