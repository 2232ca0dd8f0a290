import type { Server } from 'node:http';
import express from 'express';

// An Express backend as real communities write one: it refuses any delivery whose User-Agent is
// not the platform's, checks the secret in the body, then reads the event's nested data
// (`data.community.subdomain`, which every event carries, and `data.user.id` when there is a
// member) without guarding the community, so a flat `data` throws and Express answers 500.

export function expressUserAgentReceiver(secret: () => string): Server {
  const app = express();
  app.post('/webhooks', express.json(), (req, res) => {
    if (req.get('user-agent') !== 'Svc-Webhook') {
      res.status(403).json({ error: 'Forbidden' });
      return;
    }
    const body = req.body as {
      secret?: unknown;
      type: string;
      data: { user?: { id: string }; community: { subdomain: string } };
    };
    if (body.secret !== secret()) {
      res.status(401).json({ error: 'Unauthorized' });
      return;
    }
    const community = body.data.community.subdomain.toLowerCase();
    res.json({ ok: true, type: body.type, community, member: body.data.user?.id ?? null });
  });
  return app.listen(0, '127.0.0.1');
}
