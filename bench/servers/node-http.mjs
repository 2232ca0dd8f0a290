/**
 * The endpoint pair on plain node:http: core's request listener, `createServer(verifier.node)`,
 * against the same endpoint written by hand.
 */
import { createServer } from 'node:http';
import { createVerifier, ok } from '@questkit/core';
import { API_KEY, MESSAGE } from '../lib/claim.mjs';
import { invalidField, keyMatches, MAX_BODY_BYTES } from '../lib/hand-written.mjs';
import { listen } from './listen.mjs';

export async function start([variant]) {
  if (variant === 'questkit') return listen(questkitServer());
  if (variant === 'hand-written') return listen(handWrittenServer());
  throw new TypeError(`unknown variant ${variant}`);
}

function questkitServer() {
  const verifier = createVerifier({ apiKey: API_KEY, verify: () => ok(MESSAGE) });
  return createServer(verifier.node);
}

function handWrittenServer() {
  return createServer((req, res) => {
    if (req.method !== 'POST') return send(res, 400, 'Only POST is accepted.');
    if (!keyMatches(req.headers['x-api-key'])) return send(res, 400, 'Invalid API key.');
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', () => send(res, 400, 'The request body could not be read.'));
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return send(res, 400, 'The request body is too large.');
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, 'The request body is not valid JSON.');
      }
      const field = invalidField(body);
      if (field !== null) return send(res, 400, `Invalid request: ${field} must be a string.`);
      send(res, 200, MESSAGE);
    });
  });
}

function send(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ message }));
}
