import { gzipSync } from 'node:zlib';
import { DEFAULT_MESSAGES, ok, type ResultEvent } from '@questkit/core';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY, claim, EXPRESS_VERSIONS, jsonOf, listen, send } from './http.testkit.js';
import {
  type VerificationEndpoint,
  verificationEndpoint,
  verificationErrors,
} from './verification.js';

const JSON_HEADERS = { 'content-type': 'application/json', 'x-api-key': API_KEY };
const MALFORMED = '{"userId": "u1",';

describe.each(EXPRESS_VERSIONS)('verificationErrors on $name', ({ express }) => {
  function appWith(options: { limit?: string; errors?: boolean } = {}) {
    const events: ResultEvent[] = [];
    const onError = vi.fn();
    const app = express();
    app.use(express.json(options.limit ? { limit: options.limit } : {}));
    const verify = verificationEndpoint({
      apiKey: API_KEY,
      verify: ({ claim }) => ok(`Hello ${claim.userId}`),
      onResult: (event) => events.push(event),
      onError,
    });
    app.post('/verify', verify);
    app.post('/other', (req, res) => {
      res.json(req.body);
    });
    if (options.errors !== false) app.use('/verify', verificationErrors(verify));
    return { app, events, onError };
  }

  it('is needed: without it Express answers an app-level parser failure with HTML', async () => {
    const { app } = appWith({ errors: false });
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send(MALFORMED);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
  });

  it('is needed: a route-level error handler never sees an app-level parser failure', async () => {
    const app = express();
    app.use(express.json());
    const verify = verificationEndpoint({ apiKey: API_KEY, verify: () => ok() });
    app.post('/verify', verify, verificationErrors(verify));
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send(MALFORMED);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
  });

  it('answers malformed JSON with 400 {message} over real HTTP', async () => {
    const { app, events } = appWith();
    const server = await listen(app);
    try {
      const reply = await send(`${server.origin}/verify`, {
        headers: JSON_HEADERS,
        body: MALFORMED,
      });
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(jsonOf(reply)).toEqual({ message: DEFAULT_MESSAGES.badJson });
      expect(events.map((event) => event.reason)).toEqual(['bad_json']);
    } finally {
      await server.close();
    }
  });

  it('answers a body over the parser limit with 400 {message} over real HTTP', async () => {
    const { app, events } = appWith({ limit: '1kb' });
    const server = await listen(app);
    try {
      const body = JSON.stringify(claim({ padding: 'x'.repeat(2000) }));
      const reply = await send(`${server.origin}/verify`, { headers: JSON_HEADERS, body });
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(jsonOf(reply)).toEqual({ message: DEFAULT_MESSAGES.bodyTooLarge });
      expect(events.map((event) => event.reason)).toEqual(['body_too_large']);
    } finally {
      await server.close();
    }
  });

  it('answers a body over the default parser limit, in process', async () => {
    const { app } = appWith();
    const body = JSON.stringify(claim({ padding: 'x'.repeat(150_000) }));
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send(body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: DEFAULT_MESSAGES.bodyTooLarge });
  });

  it('names what is wrong when the text is JSON but not an object', async () => {
    const { app } = appWith();
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send('"just a string"');
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('the body must be a JSON object');
  });

  it('checks the API key first, as the endpoint does', async () => {
    const { app } = appWith();
    const reply = await request(app)
      .post('/verify')
      .set({ ...JSON_HEADERS, 'x-api-key': 'wrong' })
      .send(MALFORMED);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: DEFAULT_MESSAGES.badKey });
  });

  it.each([
    ['an unsupported charset', { 'content-type': 'application/json; charset=latin1' }, '{}'],
    ['a broken gzip body', { 'content-encoding': 'gzip' }, 'not gzip'],
  ])('answers %s with 400 {message}', async (_, headers, body) => {
    const { app, onError } = appWith();
    const reply = await request(app)
      .post('/verify')
      .set({ ...JSON_HEADERS, ...headers })
      .send(body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: DEFAULT_MESSAGES.unreadableBody });
    // A request's own fault is not an internal error.
    expect(onError).not.toHaveBeenCalled();
  });

  it('still reads a valid gzip body through the parser', async () => {
    const { app } = appWith();
    const server = await listen(app);
    try {
      const reply = await send(`${server.origin}/verify`, {
        headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify(claim())),
      });
      expect(reply.status).toBe(200);
      expect(jsonOf(reply)).toEqual({ message: 'Hello user-1' });
    } finally {
      await server.close();
    }
  });

  it('answers an app middleware failure with 400 and tells only onError', async () => {
    const app = express();
    const onError = vi.fn();
    const verify = verificationEndpoint({ apiKey: API_KEY, verify: () => ok(), onError });
    app.use((_req, _res, next) => next(new Error('session store password=hunter2 is down')));
    app.post('/verify', verify);
    app.use('/verify', verificationErrors(verify));
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send(claim());
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.text).not.toContain('hunter2');
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(Error);
  });

  // The boundary between the request's fault (4xx: answered, not reported) and the app's (any
  // other status, or none: answered and told to onError), on both sides of each edge.
  it.each([
    { field: 'status', value: 399, reported: true },
    { field: 'status', value: 400, reported: false },
    { field: 'status', value: 499, reported: false },
    { field: 'status', value: 500, reported: true },
    { field: 'statusCode', value: 404, reported: false },
    { field: 'statusCode', value: 503, reported: true },
    { field: 'status', value: undefined, reported: true },
  ])('answers an app error with $field $value in the contract; onError told: $reported', async ({
    field,
    value,
    reported,
  }) => {
    const app = express();
    const onError = vi.fn();
    const verify = verificationEndpoint({ apiKey: API_KEY, verify: () => ok(), onError });
    const failure = Object.assign(new Error('app middleware failed'), { [field]: value });
    app.use((_req, _res, next) => next(failure));
    app.post('/verify', verify);
    app.use('/verify', verificationErrors(verify));
    const server = await listen(app);
    try {
      const reply = await send(`${server.origin}/verify`, {
        headers: JSON_HEADERS,
        body: JSON.stringify(claim()),
      });
      expect(reply.status).toBe(400);
      expect(jsonOf(reply)).toEqual({ message: DEFAULT_MESSAGES.unreadableBody });
      expect(onError.mock.calls).toEqual(reported ? [[failure, { reason: 'handler_error' }]] : []);
    } finally {
      await server.close();
    }
  });

  it('touches no other path', async () => {
    const { app } = appWith();
    const reply = await request(app).post('/other').set(JSON_HEADERS).send(MALFORMED);
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
  });

  it('passes the error on when an answer was already started', async () => {
    const app = express();
    const verify = verificationEndpoint({ apiKey: API_KEY, verify: () => ok() });
    app.post('/verify', (_req, res, next) => {
      res.status(200).write('partial');
      next(new Error('late failure'));
    });
    const seen = vi.fn();
    app.use('/verify', verificationErrors(verify), ((error, _req, res, _next) => {
      seen(error);
      res.end();
    }) satisfies import('express').ErrorRequestHandler);
    const reply = await request(app).post('/verify').set(JSON_HEADERS).send(claim());
    expect(reply.text).toBe('partial');
    expect(seen).toHaveBeenCalledOnce();
  });
});

describe('verificationErrors: start-up errors', () => {
  it('throws a TypeError for handlers that are not a verification endpoint', () => {
    const other: RequestHandler = (_req, res) => {
      res.end();
    };
    const lookalike: VerificationEndpoint = [other, (_error, _req, _res, next) => next()];
    expect(() => verificationErrors(lookalike)).toThrow(
      /^\[@questkit\/express\] verificationErrors expects/,
    );
  });
});
