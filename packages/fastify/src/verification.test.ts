import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MESSAGES, fail, ok } from '@questkit/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Answer,
  API_KEY,
  type Call,
  claim,
  expect400,
  expectContract,
  inject,
  listen,
  OLD_API_KEY,
  overHttp,
  rawRequest,
} from './http.testkit.js';
import { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';

const json = { 'content-type': 'application/json', 'x-api-key': API_KEY };
const MAX_BODY_BYTES = 2048;
// The deadline of the tests that meet it (a handler or a body that never ends); the others keep
// core's 10 s, so that a busy machine's slow answer is never taken for the deadline's.
const DEADLINE_MS = 300;

/** The endpoint's handler: what a member did is read from the claim's questId. */
function verify({ claim: { questId } }: { claim: { questId: string } }) {
  if (questId === 'quest-throws') throw new Error('database down: password=hunter2');
  if (questId === 'quest-rejects') return Promise.reject(new Error('upstream 503'));
  if (questId === 'quest-garbage') return { claimed: true } as never;
  if (questId === 'quest-hangs') return new Promise<never>(() => {});
  return questId === 'quest-1' ? ok('Verified, welcome!') : fail('Follow us first.');
}

function build(options: Partial<VerificationEndpointOptions> = {}): FastifyInstance {
  const app = Fastify();
  app.register(verificationEndpoint, {
    path: '/verify',
    apiKey: [API_KEY, OLD_API_KEY],
    verify,
    maxBodyBytes: MAX_BODY_BYTES,
    onError: () => {},
    ...options,
  });
  return app;
}

type Send = (call: Call) => Promise<Answer>;

// Every invariant holds in-process and over a real loopback connection alike.
describe.each(['inject', 'http'] as const)('verification endpoint over %s', (transport) => {
  let app: FastifyInstance;
  let send: Send;
  const onError = vi.fn();
  const onResult = vi.fn();

  const sender = async (target: FastifyInstance): Promise<Send> => {
    if (transport === 'inject') return (call) => inject(target, call);
    const origin = await listen(target);
    return (call) => overHttp(origin, call);
  };

  beforeEach(async () => {
    onError.mockReset();
    onResult.mockReset();
    app = build({ onError, onResult });
    send = await sender(app);
  });
  afterEach(() => app.close());

  const post = (body: unknown, headers: Record<string, string> = json) =>
    send({ headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('answers 200 {message} when the handler verifies the claim', async () => {
    const answer = await post(claim());
    expect(answer.status).toBe(200);
    expect(expectContract(answer)).toBe('Verified, welcome!');
    expect(onResult).toHaveBeenCalledWith(expect.objectContaining({ reason: 'ok', status: 200 }));
  });

  it('answers 400 with the handler message when it does not', async () => {
    expect(expect400(await post(claim({ questId: 'quest-2' })))).toBe('Follow us first.');
  });

  it('refuses a missing or wrong key and accepts every key of a rotation', async () => {
    const { 'x-api-key': _, ...noKey } = json;
    expect(expect400(await post(claim(), noKey))).toBe(DEFAULT_MESSAGES.missingKey);
    const wrong = await post(claim(), { ...json, 'x-api-key': `${API_KEY}x` });
    expect(expect400(wrong)).toBe(DEFAULT_MESSAGES.badKey);
    expect(wrong.body).not.toContain(API_KEY);
    expect((await post(claim(), { ...json, 'x-api-key': OLD_API_KEY })).status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"userId":', json],
    ['an empty body', '', json],
    ['a JSON array', '[1,2]', json],
    [
      'a form body',
      'userId=1&questId=2',
      { ...json, 'content-type': 'application/x-www-form-urlencoded' },
    ],
    [
      'multipart',
      '--x\r\n\r\n--x--',
      { ...json, 'content-type': 'multipart/form-data; boundary=x' },
    ],
  ])('answers 400 {message} to %s', async (_name, body, headers) => {
    expect400(await post(body, headers));
  });

  it('reads the claim whatever the content type says, as core does', async () => {
    const body = JSON.stringify(claim());
    for (const contentType of ['text/plain', 'application/octet-stream', 'not a media type', '']) {
      const headers = { 'x-api-key': API_KEY, 'content-type': contentType };
      expect((await post(body, headers)).status).toBe(200);
    }
    expect((await post(body, { 'x-api-key': API_KEY })).status).toBe(200);
  });

  it('answers 400 {message} to a body over maxBodyBytes', async () => {
    const big = JSON.stringify(claim({ padding: 'x'.repeat(MAX_BODY_BYTES) }));
    expect(expect400(await post(big))).toBe(DEFAULT_MESSAGES.bodyTooLarge);
  });

  it('names the missing field and tolerates unknown ones', async () => {
    const { questId: _, ...partial } = claim();
    expect(expect400(await post(partial))).toMatch(/questId/);
    expect(expect400(await post(claim({ requestId: 42 })))).toMatch(/requestId/);
    expect((await post(claim({ newPlatformField: { nested: true } }))).status).toBe(200);
  });

  it.each([
    'GET',
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'HEAD',
    'TRACE',
  ])('answers 400 {message} to %s', async (method) => {
    const answer = await send({ method, headers: { 'x-api-key': API_KEY } });
    expect(expect400(answer, method)).toBe(
      method === 'HEAD' ? '' : DEFAULT_MESSAGES.methodNotAllowed,
    );
  });

  it.each([
    ['throws', 'quest-throws'],
    ['rejects', 'quest-rejects'],
    ['returns garbage', 'quest-garbage'],
  ])('answers the generic 400 when the handler %s, and tells onError', async (_name, questId) => {
    const answer = await post(claim({ questId }));
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.handlerError);
    expect(answer.body).not.toMatch(/hunter2|503|database/);
    expect(onError).toHaveBeenCalledWith(
      expect.any(Error),
      expect.objectContaining({ reason: 'handler_error', requestId: 'request-1' }),
    );
  });

  it('answers 400 when the handler outlives the deadline', async () => {
    const short = build({ timeoutMs: DEADLINE_MS, onError, onResult });
    try {
      const answer = await (await sender(short))({
        headers: json,
        body: JSON.stringify(claim({ questId: 'quest-hangs' })),
      });
      expect(expect400(answer)).toBe(DEFAULT_MESSAGES.timeout);
    } finally {
      await short.close();
    }
  });
});

describe('over a real connection', () => {
  // The client asks to keep the connection: only the server can decide to close it.
  const keepAlive = { connection: 'keep-alive' };
  let app: FastifyInstance;
  let origin: URL;
  beforeEach(async () => {
    app = build();
    origin = await listen(app);
  });
  afterEach(() => app.close());

  it('refuses a wrong key before the body arrives, and closes the connection', async () => {
    const answer = await rawRequest(origin, {
      headers: { ...keepAlive, ...json, 'x-api-key': 'nope', 'content-length': '100' },
      end: false,
    });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.badKey);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.socketClosed).toBe(true);
  });

  it('refuses a declared length over the limit before reading it', async () => {
    const answer = await rawRequest(origin, {
      headers: { ...keepAlive, ...json, 'content-length': String(10 * 1024 * 1024) },
      chunks: ['{"userId":'],
      end: false,
    });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.bodyTooLarge);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.socketClosed).toBe(true);
  });

  it('stops reading a chunked body at the limit and closes the connection', async () => {
    const chunk = 'x'.repeat(1024);
    const answer = await rawRequest(origin, {
      headers: { ...keepAlive, ...json, 'transfer-encoding': 'chunked' },
      chunks: [chunk, chunk, chunk, chunk],
      end: false,
    });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.bodyTooLarge);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.socketClosed).toBe(true);
  });

  it('answers a body that never ends by the deadline, and closes the connection', async () => {
    await app.close();
    app = build({ timeoutMs: DEADLINE_MS });
    origin = await listen(app);
    const answer = await rawRequest(origin, {
      headers: { ...keepAlive, ...json, 'transfer-encoding': 'chunked' },
      chunks: ['{"userId":"u'],
      end: false,
    });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.timeout);
    expect(answer.headers.connection).toBe('close');
    expect(await answer.socketClosed).toBe(true);
  });

  it('keeps the connection alive when the whole body was read', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await rawRequest(origin, {
        agent,
        headers: json,
        body: JSON.stringify(claim()),
      });
      expect(first.status).toBe(200);
      expect(first.headers.connection).toBe('keep-alive');
      const refused = await rawRequest(origin, { agent, method: 'GET', headers: {} });
      expect(refused.reusedSocket).toBe(true);
      expect(refused.headers.connection).toBe('keep-alive');
      const third = await rawRequest(origin, { agent, headers: json, body: '{' });
      expect(third.reusedSocket).toBe(true);
      expect(expect400(third)).toBe(DEFAULT_MESSAGES.badJson);
    } finally {
      agent.destroy();
    }
  });
});

describe('in a larger app', () => {
  let app: FastifyInstance;
  afterEach(() => app?.close());

  function appWithNeighbours(): FastifyInstance {
    app = Fastify();
    app.post('/before', async (request) => ({ received: request.body }));
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    app.post('/after', async (request) => ({ received: request.body }));
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    return app;
  }

  it.each(['/before', '/after'])('leaves Fastify JSON parsing of %s untouched', async (path) => {
    appWithNeighbours();
    const parsed = await inject(app, { path, headers: json, body: '{"a":1}' });
    expect(JSON.parse(parsed.body)).toEqual({ received: { a: 1 } });

    const malformed = await inject(app, { path, headers: json, body: '{"a":' });
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({
      statusCode: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      error: 'Bad Request',
    });
    const empty = await inject(app, { path, headers: json, body: '' });
    expect(JSON.parse(empty.body)).toMatchObject({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    const wrongType = await inject(app, {
      path,
      headers: { 'content-type': 'application/xml' },
      body: '<a/>',
    });
    expect(wrongType.status).toBe(415);
  });

  it("leaves the app's error handler and 404 to the other routes", async () => {
    appWithNeighbours();
    const boom = await inject(app, { method: 'GET', path: '/boom' });
    expect(boom.status).toBe(500);
    expect(JSON.parse(boom.body)).toMatchObject({ statusCode: 500, message: 'boom' });
    const missing = await inject(app, { method: 'GET', path: '/verify/nope' });
    expect(missing.status).toBe(404);
  });

  it('takes the body unparsed even when the app replaced the JSON parser', async () => {
    app = Fastify();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, _body, done) =>
      done(new Error('app parser must not run here')),
    );
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const answer = await inject(app, { headers: json, body: JSON.stringify(claim()) });
    expect(answer.status).toBe(200);
  });

  it('lets app hooks run first, as on any route, and still refuses a wrong key', async () => {
    app = Fastify();
    const preParsing = vi.fn();
    app.addHook('preParsing', async (_request, _reply, payload) => {
      preParsing();
      return payload;
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const refused = await inject(app, { headers: { ...json, 'x-api-key': 'wrong' }, body: '{}' });
    expect(expect400(refused)).toContain('did not accept the API key');
    expect((await inject(app, { headers: json, body: JSON.stringify(claim()) })).status).toBe(200);
    expect(preParsing).toHaveBeenCalledTimes(2);
  });

  it("counts the deadline from the request's arrival, the app's own hooks included", async () => {
    app = Fastify();
    // The app's hook takes 600 ms of a 1000 ms budget on purpose; the handler would answer 700 ms
    // later, 300 ms past the deadline and 300 ms before a deadline counted from the handler's start.
    app.addHook('onRequest', async () => {
      await sleep(600);
    });
    app.register(verificationEndpoint, {
      path: '/verify',
      apiKey: API_KEY,
      timeoutMs: 1000,
      verify: async () => {
        await sleep(700);
        return ok('Verified, welcome!');
      },
      onError: () => {},
    });
    const answer = await overHttp(await listen(app), {
      headers: json,
      body: JSON.stringify(claim()),
    });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.timeout);
  });

  it('marks arrivals with one listener a server, however many endpoints it serves', async () => {
    app = Fastify();
    const before = app.server.listenerCount('request');
    for (const path of ['/a', '/b', '/c']) {
      app.register(verificationEndpoint, { path, apiKey: API_KEY, verify });
    }
    await app.ready();
    expect(app.server.listenerCount('request')).toBe(before + 1);
  });

  it('answers 400 when an app hook already drained the body', async () => {
    app = Fastify();
    app.addHook('preParsing', async (_request, _reply, payload) => {
      for await (const _chunk of payload) {
        // drained
      }
      return payload;
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const origin = await listen(app);
    const answer = await overHttp(origin, { headers: json, body: JSON.stringify(claim()) });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.badJson);
  });

  it.each([
    ['an Error', () => new Error('session store down'), DEFAULT_MESSAGES.unreadableBody],
    [
      'a 413',
      () => Object.assign(new Error('too large'), { statusCode: 413 }),
      DEFAULT_MESSAGES.bodyTooLarge,
    ],
  ])('turns %s thrown by an app hook into a 400 {message}', async (_name, error, message) => {
    app = Fastify();
    app.addHook('preParsing', async () => {
      throw error();
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const answer = await inject(app, { headers: json, body: JSON.stringify(claim()) });
    expect(expect400(answer)).toBe(message);
  });

  it('drains the body of a request an app hook failed, and keeps the connection', async () => {
    app = Fastify();
    app.addHook('onRequest', async () => {
      throw Object.assign(new Error('slow down'), { statusCode: 429 });
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const origin = await listen(app);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Larger than the socket's buffers: unread, it would still be on the wire at the answer.
      const body = JSON.stringify(claim({ padding: 'x'.repeat(2_000_000) }));
      const failed = await rawRequest(origin, { agent, headers: json, body });
      expect(expect400(failed)).toBe(DEFAULT_MESSAGES.unreadableBody);
      expect(failed.headers.connection).toBe('keep-alive');
      const next = await rawRequest(origin, { agent, method: 'GET', headers: {} });
      expect(next.reusedSocket).toBe(true);
      expect(next.status).toBe(400);
    } finally {
      agent.destroy();
    }
  });

  it('still checks the key when an app hook fails first', async () => {
    app = Fastify();
    app.addHook('onRequest', async () => {
      throw new Error('auth service down');
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    const answer = await inject(app, { headers: { 'x-api-key': 'wrong' }, body: '{}' });
    expect(expect400(answer)).toBe(DEFAULT_MESSAGES.badKey);
  });

  it('mounts under the prefix it is registered with', async () => {
    app = Fastify();
    app.register(verificationEndpoint, {
      prefix: '/hooks',
      path: '/verify',
      apiKey: API_KEY,
      verify,
    });
    const answer = await inject(app, {
      path: '/hooks/verify?source=platform',
      headers: json,
      body: JSON.stringify(claim()),
    });
    expect(answer.status).toBe(200);
  });

  it("logs internal errors through Fastify's logger, without the key", async () => {
    const lines: string[] = [];
    app = Fastify({
      logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } },
    });
    app.register(verificationEndpoint, { path: '/verify', apiKey: API_KEY, verify });
    await inject(app, { headers: json, body: JSON.stringify(claim({ questId: 'quest-throws' })) });
    const logged = lines.join('\n');
    expect(logged).toContain('handler_error');
    expect(logged).toContain('request-1');
    expect(logged).not.toContain(API_KEY);
  });
});

describe('start-up', () => {
  it.each([
    ['path is missing', { path: undefined }, /\[@questkit\/fastify\] .*path/],
    ['path is relative', { path: 'verify' }, /\[@questkit\/fastify\] .*path/],
    ['apiKey is missing', { apiKey: undefined }, /\[@questkit\/core\] apiKey/],
    ['verify is missing', { verify: undefined }, /\[@questkit\/core\] verify or quests/],
  ])('throws a TypeError when %s', async (_name, override, message) => {
    const app = Fastify();
    app.register(verificationEndpoint, {
      path: '/verify',
      apiKey: API_KEY,
      verify,
      ...(override as Partial<VerificationEndpointOptions>),
    });
    const error: unknown = await app.ready().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(message);
  });
});
