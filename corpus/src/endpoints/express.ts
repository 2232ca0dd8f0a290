import type { Server } from 'node:http';
import express from 'express';

// Express 5 as its guide writes it: `express.json()` in front, the route reads `req.body`.
// Without the parser (a common slip) `req.body` is undefined and every claim crashes.

/** The Express app on `/verify`, with or without `express.json()`. */
export function expressEndpoint(apiKey: string, options: { parser: boolean }): Server {
  const app = express();
  if (options.parser) app.use(express.json());
  app.post('/verify', (req, res) => {
    if (req.get('x-api-key') !== apiKey) {
      res.status(400).json({ message: 'Invalid API key.' });
      return;
    }
    const { userId } = req.body as { userId?: unknown };
    if (typeof userId !== 'string') {
      res.status(400).json({ message: 'Missing userId.' });
      return;
    }
    res.json({ message: 'Verified, enjoy your reward!' });
  });
  return app.listen(0, '127.0.0.1');
}
