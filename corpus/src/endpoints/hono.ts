import { Hono } from 'hono';

// Hono on Node as its quick start writes it: `c.req.json()` straight away, which throws on a body
// that is not JSON (Hono then answers 500 text).

/** A Hono app with `POST /verify`. */
export function honoEndpoint(apiKey: string): Hono {
  const app = new Hono();
  app.post('/verify', async (c) => {
    if (c.req.header('x-api-key') !== apiKey) return c.json({ message: 'Invalid API key.' }, 400);
    const { userId } = await c.req.json<{ userId?: unknown }>();
    if (typeof userId !== 'string') return c.json({ message: 'Missing userId.' }, 400);
    return c.json({ message: 'Verified, enjoy your reward!' });
  });
  return app;
}
