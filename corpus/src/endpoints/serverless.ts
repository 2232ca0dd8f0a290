import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// A serverless function (`(req, res)`, as Vercel's Node runtime gives it: the body parsed from
// JSON before the handler runs, `res.status()` and `res.json()` helpers). The runtime answers a
// body that is not JSON with its own text 400, and the author refuses anything but POST with a
// bare 405: both only on requests the platform never sends.

interface FunctionRequest extends IncomingMessage {
  body: unknown;
}
interface FunctionResponse extends ServerResponse {
  status(code: number): FunctionResponse;
  json(value: unknown): void;
}

function handler(apiKey: string) {
  return (req: FunctionRequest, res: FunctionResponse) => {
    if (req.method !== 'POST') {
      res.status(405).end();
      return;
    }
    if (req.headers['x-api-key'] !== apiKey) {
      res.status(400).json({ message: 'Invalid API key.' });
      return;
    }
    const { userId } = (req.body ?? {}) as { userId?: unknown };
    if (typeof userId !== 'string') {
      res.status(400).json({ message: 'Missing userId.' });
      return;
    }
    res.status(200).json({ message: 'Verified, enjoy your reward!' });
  };
}

/** The function behind a tiny stand-in for the runtime that runs it (JSON bodies parsed first). */
export function serverlessEndpoint(apiKey: string): Server {
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
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text === '' ? undefined : text;
      if (/json/i.test(req.headers['content-type'] ?? '') && text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          fn.writeHead(400, { 'content-type': 'text/plain' }).end('Invalid JSON');
          return;
        }
      }
      handler(apiKey)(Object.assign(req, { body }), fn);
    });
  }).listen(0, '127.0.0.1');
}
