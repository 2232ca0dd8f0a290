/**
 * The endpoint pair on Fastify 5: the `@questkit/fastify` plugin as its README registers it,
 * against a route a developer writes with Fastify's own JSON parser.
 */
import { ok } from '@questkit/core';
import Fastify from 'fastify';
import { API_KEY, MESSAGE, ROUTE } from '../lib/claim.mjs';
import { invalidField, keyMatches } from '../lib/hand-written.mjs';

export async function start([variant]) {
  const app = Fastify({ logger: false });
  if (variant === 'questkit') {
    const { verificationEndpoint } = await import('@questkit/fastify');
    await app.register(verificationEndpoint, {
      path: ROUTE,
      apiKey: API_KEY,
      verify: () => ok(MESSAGE),
    });
  } else if (variant === 'hand-written') {
    app.post(ROUTE, async (request, reply) => {
      if (!keyMatches(request.headers['x-api-key'])) {
        return reply.code(400).send({ message: 'Invalid API key.' });
      }
      const field = invalidField(request.body);
      if (field !== null) {
        return reply.code(400).send({ message: `Invalid request: ${field} must be a string.` });
      }
      return { message: MESSAGE };
    });
    // Bad JSON or a body over the limit: {message}, not Fastify's error format.
    app.setErrorHandler((_error, _request, reply) => {
      reply.code(400).send({ message: 'The request body is not valid JSON.' });
    });
  } else {
    throw new TypeError(`unknown variant ${variant}`);
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: app.server.address().port, server: app.server, close: () => app.close() };
}
