import type { Server } from 'node:http';
import express from 'express';

// An Express receiver that checks the secret in the body, then reads the event's fields at the
// top level (`event`, `userId`), as a guess at the payload: every real delivery, whose fields
// sit under `data`, gets 400.

export function expressTopLevelReceiver(secret: () => string): Server {
  const app = express();
  app.post('/webhooks', express.json(), (req, res) => {
    const body = req.body as { secret?: unknown; event?: unknown; userId?: unknown };
    if (body.secret !== secret()) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    if (typeof body.event !== 'string' || typeof body.userId !== 'string') {
      res.status(400).json({ error: 'Invalid payload: event and userId are required' });
      return;
    }
    res.json({ ok: true });
  });
  return app.listen(0, '127.0.0.1');
}
