/**
 * The endpoint pair on Hono 4 served by @hono/node-server: the `@questkit/hono` handler as its
 * README mounts it, against a route a developer writes with `c.req.json()`.
 */
import { serve } from '@hono/node-server';
import { ok } from '@questkit/core';
import { Hono } from 'hono';
import { API_KEY, MESSAGE, ROUTE } from '../lib/claim.mjs';
import { invalidField, keyMatches } from '../lib/hand-written.mjs';

export async function start([variant]) {
  const app = new Hono();
  if (variant === 'questkit') {
    const { verificationEndpoint } = await import('@questkit/hono');
    app.all(ROUTE, verificationEndpoint({ apiKey: API_KEY, verify: () => ok(MESSAGE) }));
  } else if (variant === 'hand-written') {
    app.post(ROUTE, async (c) => {
      if (!keyMatches(c.req.header('x-api-key'))) {
        return c.json({ message: 'Invalid API key.' }, 400);
      }
      let body;
      try {
        body = await c.req.json();
      } catch {
        return c.json({ message: 'The request body is not valid JSON.' }, 400);
      }
      const field = invalidField(body);
      if (field !== null) {
        return c.json({ message: `Invalid request: ${field} must be a string.` }, 400);
      }
      return c.json({ message: MESSAGE });
    });
  } else {
    throw new TypeError(`unknown variant ${variant}`);
  }
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        port: info.port,
        server,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
