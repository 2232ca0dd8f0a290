import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';

// An Express connect route as a careful community writes it: the signature is checked against
// the app's public URL (configured, not the Host header), then a member who is not logged in
// gets the login page; a logged-in one (here: a test mode that logs every visitor in) is sent
// straight back to the callback with `identifier`, the whole URL signed.

const hmac = (secret: string, text: string) =>
  createHmac('sha256', secret).update(text).digest('hex');

/** The connect route on `/connect`; `publicOrigin()` is read per request (known once bound). */
export function expressConnect(options: {
  secret: () => string;
  publicOrigin: () => string;
  /** Every visitor is logged in as this member (a test mode), or none is (a login page). */
  testMember?: string;
  /** The app's auth middleware runs in front of the route: 401 before any signature check. */
  loginGate?: boolean;
}): Server {
  const app = express();
  if (options.loginGate) {
    // As the app protects its API: a session token, or 401 JSON.
    app.use((req, res, next) => {
      if (!req.get('authorization')) {
        res.status(401).json({ message: 'Not authorized, no token' });
        return;
      }
      next();
    });
  }
  app.get('/connect', (req, res) => {
    const url = new URL(req.originalUrl, options.publicOrigin());
    const signature = url.searchParams.get('signature') ?? '';
    url.searchParams.delete('signature');
    const expected = hmac(options.secret(), url.href);
    if (
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    ) {
      res.status(400).json({ error: 'Invalid signature' });
      return;
    }
    const callback = url.searchParams.get('callback') ?? url.searchParams.get('callbackUrl');
    if (!callback) {
      res.status(400).json({ error: 'Missing callback' });
      return;
    }
    if (options.testMember === undefined) {
      res
        .status(200)
        .type('html')
        .send('<!doctype html><title>Log in</title><form method="post" action="/login"></form>');
      return;
    }
    const back = new URL(callback);
    back.searchParams.set('identifier', options.testMember);
    back.searchParams.set('signature', hmac(options.secret(), back.href));
    res.redirect(302, back.href);
  });
  return app.listen(0, '127.0.0.1');
}
