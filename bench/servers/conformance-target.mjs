/**
 * A local questkit community app for the conformance runner: the verification endpoint (core's
 * request listener, `verifier.node`, on node:http) at /verify, the connect flow (core's
 * `createConnectFlow`, with a member always logged in) at /connect, and two broken endpoints: one
 * that answers every request after 11 s (/slow) and one that never answers (/never).
 */
import { createServer } from 'node:http';
import { createConnectFlow, createVerifier, ok } from '@questkit/core';
import { requestFromNode, writeNodeAnswer } from '@questkit/core/adapter';
import { API_KEY, CONNECT_SECRET, MESSAGE, ROUTE } from '../lib/claim.mjs';
import { listen } from './listen.mjs';

export async function start() {
  const verifier = createVerifier({ apiKey: API_KEY, verify: () => ok(MESSAGE) });
  const flow = createConnectFlow({ secret: CONNECT_SECRET, getIdentifier: () => 'bench-member' });
  const server = createServer(async (req, res) => {
    if (req.url.startsWith('/connect')) {
      const url = `http://${req.headers.host}${req.url}`;
      writeNodeAnswer(res, await flow.handle({ ...requestFromNode(req), url }, req));
      return;
    }
    if (req.url.startsWith('/slow')) {
      req.resume();
      setTimeout(() => {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"Too late."}');
      }, 11_000);
      return;
    }
    if (req.url.startsWith('/never')) return;
    if (!req.url.startsWith(ROUTE)) {
      res.writeHead(404).end();
      return;
    }
    verifier.node(req, res);
  });
  return listen(server);
}
