import type { Server } from 'node:http';
import express from 'express';

// An Express receiver that authenticates by a token in its own URL (`/webhooks?token=...`, set
// as the webhook's uri), as many receivers of other platforms do, and never reads the body's
// secret: every delivery gets 200, a delivery with a wrong secret too.

export function urlTokenReceiver(token: string): Server {
  const app = express();
  app.post('/webhooks', express.json(), (req, res) => {
    if (req.query.token !== token) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    res.json({ received: true });
  });
  return app.listen(0, '127.0.0.1');
}
