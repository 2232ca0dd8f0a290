/**
 * The endpoint pair on Express 5 or Express 4 (`start(['express' | 'express4', variant])`): the
 * `@questkit/express` handler as its README mounts it, against the handler a developer writes
 * with `express.json()`.
 */
import { createServer } from 'node:http';
import { ok } from '@questkit/core';
import { API_KEY, MESSAGE, ROUTE } from '../lib/claim.mjs';
import { invalidField, keyMatches } from '../lib/hand-written.mjs';
import { listen } from './listen.mjs';

export async function start([flavour, variant]) {
  if (flavour !== 'express' && flavour !== 'express4') throw new TypeError(`unknown ${flavour}`);
  const { default: express } = await import(flavour);
  const app = express();
  if (variant === 'questkit') {
    const { verificationEndpoint } = await import('@questkit/express');
    app.all(ROUTE, verificationEndpoint({ apiKey: API_KEY, verify: () => ok(MESSAGE) }));
  } else if (variant === 'hand-written') {
    app.post(ROUTE, express.json(), (req, res) => {
      if (!keyMatches(req.get('x-api-key'))) {
        return res.status(400).json({ message: 'Invalid API key.' });
      }
      const field = invalidField(req.body);
      if (field !== null) {
        return res.status(400).json({ message: `Invalid request: ${field} must be a string.` });
      }
      res.status(200).json({ message: MESSAGE });
    });
    // Bad JSON or a body over the parser's limit: a JSON answer, not Express's HTML page.
    app.use((error, _req, res, next) => {
      if (res.headersSent) return next(error);
      res.status(400).json({ message: 'The request body is not valid JSON.' });
    });
  } else {
    throw new TypeError(`unknown variant ${variant}`);
  }
  return listen(createServer(app));
}
