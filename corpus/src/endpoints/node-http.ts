import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

// Hand-written on node:http, the way a small community app writes its first endpoint: read the
// body, parse it, compare the key, answer. Its known faults are options.

/** How a hand-written endpoint goes wrong. */
export interface NodeHttpFaults {
  /** Answers a wrong or missing key with 401 {error}, as most REST tutorials teach. */
  unauthorized401?: boolean;
  /** Reads `accounts['svc-connect']` first: a task configured for connect only always sends it. */
  connectOnly?: boolean;
  /** Sends its JSON as `text/html`, the default of `res.end` in many snippets. */
  htmlContentType?: boolean;
  /** Answers a member who does not qualify 200 `{"verified": false, message}`. */
  saysNoWith200?: boolean;
  /** Correct, but every refusal reads the same, a wrong key's too: "Not yet complete." */
  oneRefusal?: boolean;
}

function reply(res: ServerResponse, status: number, body: unknown, type: string) {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The endpoint on `/verify`; every other path is a 404, as a router gives. */
export function nodeHttpEndpoint(apiKey: string, faults: NodeHttpFaults = {}): Server {
  const type = faults.htmlContentType ? 'text/html' : 'application/json';
  const send = (res: ServerResponse, status: number, body: unknown) =>
    reply(res, status, body, type);
  return createServer(async (req, res) => {
    if (req.url !== '/verify') return send(res, 404, { error: 'Not found' });
    if (req.method !== 'POST') return send(res, 400, { message: 'Use POST.' });
    if (req.headers['x-api-key'] !== apiKey) {
      if (faults.oneRefusal) return send(res, 400, { message: 'Not yet complete.' });
      return faults.unauthorized401
        ? send(res, 401, { error: 'Unauthorized' })
        : send(res, 400, { message: 'Invalid API key.' });
    }
    let claim: { userId?: unknown; accounts?: Record<string, unknown> };
    try {
      claim = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, { message: 'Invalid JSON.' });
    }
    if (typeof claim !== 'object' || claim === null || typeof claim.userId !== 'string') {
      return send(res, 400, { message: 'Missing userId.' });
    }
    try {
      if (faults.connectOnly) {
        // A TypeError when the claim has no accounts, or no svc-connect: a 500, as written.
        const member = (claim.accounts!['svc-connect'] as string).toLowerCase();
        return send(res, 400, { message: `No purchase for ${member} yet.` });
      }
      // The probe member qualifies for nothing here: its claims are refused.
      if (faults.saysNoWith200) {
        return send(res, 200, { verified: false, message: 'Complete the quest first.' });
      }
      if (faults.oneRefusal) return send(res, 400, { message: 'Not yet complete.' });
      return send(res, 200, { message: 'Verified, enjoy your reward!' });
    } catch {
      return send(res, 500, { error: 'Internal Server Error' });
    }
  });
}
