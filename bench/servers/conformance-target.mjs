/**
 * A local questkit community app for the conformance runner: the verification endpoint (core's
 * request listener, `verifier.node`, on node:http) at /verify and the connect flow (core's `createConnectFlow`, with a
 * member always logged in) at /connect.
 */
import { createServer } from 'node:http';
import { createConnectFlow, createVerifier, ok } from '@questkit/core';
import { API_KEY, CONNECT_SECRET, MESSAGE, ROUTE } from '../lib/claim.mjs';
import { listen } from './listen.mjs';

export async function start() {
  const verifier = createVerifier({ apiKey: API_KEY, verify: () => ok(MESSAGE) });
  const flow = createConnectFlow({ secret: CONNECT_SECRET, getIdentifier: () => 'bench-member' });
  const server = createServer(async (req, res) => {
    if (req.url.startsWith('/connect')) {
      const action = await flow.handle(`http://${req.headers.host}${req.url}`, req);
      if (action.kind === 'redirect') {
        res.writeHead(action.status, { location: action.location });
        res.end();
      } else {
        res.writeHead(action.status, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(action.message);
      }
      return;
    }
    if (!req.url.startsWith(ROUTE)) {
      res.writeHead(404).end();
      return;
    }
    verifier.node(req, res);
  });
  return listen(server);
}
