import type { DoorAnswer, DoorBody, DoorRequest } from '@questkit/core/adapter';
import { nodeHeader } from '@questkit/core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A Fastify request as core's door sees it. */
export function doorRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  body: DoorBody,
): DoorRequest {
  return {
    method: request.method,
    url: request.url,
    header: (name) => nodeHeader(request.headers, name),
    body,
    // The deadline counts from the request's arrival, however long the app's own hooks took.
    receivedAt: Date.now() - reply.elapsedTime,
  };
}

/** Writes core's answer as it stands; the returned text is what the handler sends. */
export function writeAnswer(reply: FastifyReply, answer: DoorAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  if (answer.cookies.length > 0) reply.header('set-cookie', [...answer.cookies]);
  if (answer.close) reply.header('connection', 'close');
  return reply.send(answer.body);
}
