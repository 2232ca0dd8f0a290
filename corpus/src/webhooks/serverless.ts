import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// A serverless function (`(req, res)`, the body parsed before the handler runs, `res.status()`
// and `res.json()` helpers, as Vercel's Node runtime gives them) that receives deliveries as the
// platform sends them: the secret in the body, the event under `data` with its community (and
// member, when there is one) nested: `data.community.id`, `data.user.id`. Correct.

interface FunctionRequest extends IncomingMessage {
  body: unknown;
}
interface FunctionResponse extends ServerResponse {
  status(code: number): FunctionResponse;
  json(value: unknown): void;
}

function handler(secret: string) {
  return (req: FunctionRequest, res: FunctionResponse) => {
    const body = (req.body ?? {}) as {
      secret?: unknown;
      id?: unknown;
      type?: unknown;
      data?: { community?: { id?: unknown }; user?: { id?: unknown } };
    };
    const given = Buffer.from(typeof body.secret === 'string' ? body.secret : '');
    const wanted = Buffer.from(secret);
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
      res.status(401).json({ error: 'Invalid secret' });
      return;
    }
    if (typeof body.type !== 'string' || typeof body.data?.community?.id !== 'string') {
      res.status(400).json({ error: 'Not an event' });
      return;
    }
    // Handled or already handled (the id repeats on retries): 200 either way.
    res.status(200).json({ received: true });
  };
}

/** The function behind a tiny stand-in for the platform that runs it (JSON body parsed first). */
export function serverlessReceiver(secret: () => string): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fn = res as FunctionResponse;
      fn.status = (code) => {
        fn.statusCode = code;
        return fn;
      };
      fn.json = (value) => {
        fn.setHeader('content-type', 'application/json');
        fn.end(JSON.stringify(value));
      };
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      handler(secret())(Object.assign(req, { body }), fn);
    });
  }).listen(0, '127.0.0.1');
}
