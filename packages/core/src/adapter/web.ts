import type { DoorAnswer, DoorRequest } from './door.js';

/** A Web `Request` as a {@link DoorRequest}: for every runtime with `fetch` handlers. */
export function requestFromWeb(request: Request, receivedAt = Date.now()): DoorRequest {
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name) ?? undefined,
    body: request.body ? { kind: 'stream', stream: request.body } : { kind: 'bytes', value: '' },
    receivedAt,
  };
}

/** A {@link DoorAnswer} as a Web `Response`. */
export function responseFromAnswer(answer: DoorAnswer): Response {
  const headers = new Headers(answer.headers);
  for (const cookie of answer.cookies) headers.append('set-cookie', cookie);
  if (answer.close) headers.set('connection', 'close');
  // A body with a 204 or 304 is an error in the Response constructor.
  const body = answer.status === 204 || answer.status === 304 ? null : answer.body;
  return new Response(body, { status: answer.status, headers });
}
