import Fastify, { type FastifyInstance } from 'fastify';

// Fastify 5 with its defaults: its JSON parser, body limit and error format in front of the route.

/** A Fastify app on `/verify`, not yet listening. */
export function fastifyEndpoint(apiKey: string): FastifyInstance {
  const app = Fastify();
  app.post('/verify', async (request, reply) => {
    if (request.headers['x-api-key'] !== apiKey) {
      return reply.code(400).send({ message: 'Invalid API key.' });
    }
    const { userId } = (request.body ?? {}) as { userId?: unknown };
    if (typeof userId !== 'string') return reply.code(400).send({ message: 'Missing userId.' });
    return { message: 'Verified, enjoy your reward!' };
  });
  return app;
}
