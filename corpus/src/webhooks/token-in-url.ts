import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';

// A receiver that authenticates by a token in its own URL (`/webhooks?token=…`, the URL given to
// the platform), as a Rails controller does with `params[:token]`, and ignores the body's
// `secret`. Every delivery to the right URL gets 200: so does one with a wrong secret.

export function tokenInUrlReceiver(token: string): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const given = Buffer.from(
        new URL(req.url ?? '/', 'http://receiver').searchParams.get('token') ?? '',
      );
      const wanted = Buffer.from(token);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      let event: { type?: unknown; data?: { user?: { id?: unknown } } } = {};
      try {
        event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"bad json"}');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ received: event.type }));
    });
  }).listen(0, '127.0.0.1');
}
