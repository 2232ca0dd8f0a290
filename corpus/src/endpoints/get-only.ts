import type { Server } from 'node:http';
import express from 'express';

// Express 5, the route declared with `app.get` and the claim read from the query string, as a
// tutorial for "an endpoint the platform calls" might show it: every POST the platform sends gets
// Express's own 404 page, while a GET gets the route's answer.

/** The GET-only route on `/verify`. */
export function getOnlyEndpoint(apiKey: string): Server {
  const app = express();
  app.get('/verify', (req, res) => {
    if (req.get('x-api-key') !== apiKey) {
      res.status(400).json({ message: 'Invalid API key.' });
      return;
    }
    if (typeof req.query.userId !== 'string') {
      res.status(400).json({ message: 'Missing userId.' });
      return;
    }
    res.json({ message: 'Verified, enjoy your reward!' });
  });
  return app.listen(0, '127.0.0.1');
}
