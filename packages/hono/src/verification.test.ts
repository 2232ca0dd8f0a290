import { Agent } from 'node:http';
import { fail, ok } from '@questkit/core';
import { Hono, type MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listen, type RawResponse, send } from './http.testkit.js';
import { type VerificationEndpointOptions, verificationEndpoint } from './verification.js';

const KEY = 'hono-key-0123456789abcdef';
const OLD_KEY = 'hono-old-key-fedcba9876543210';
const claim = {
  userId: 'u-1',
  communityId: 'c-1',
  subdomain: 'demo',
  questId: 'q-1',
  requestId: 'r-1',
  accounts: { email: 'ada@example.com' },
};
const BODY = JSON.stringify(claim);
const JSON_TYPE = 'application/json; charset=utf-8';
const HANDLER_ERROR = 'We could not verify this right now. Please try again later.';

interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

interface Answer {
  status: number;
  type: string | null;
  text: string;
}

/** One way of getting a request to the app: in-process or over a real loopback socket. */
interface Transport {
  name: string;
  send(app: Hono, sent: Sent): Promise<Answer>;
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const inProcess: Transport = {
  name: 'in-process (app.request)',
  async send(app, sent) {
    const method = sent.method ?? 'POST';
    const response = await app.request('/verify', {
      method,
      headers: sent.headers,
      body: method === 'GET' || method === 'HEAD' ? null : (sent.body ?? null),
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  },
};

const overHttp: Transport = {
  name: 'real HTTP (@hono/node-server)',
  async send(app, sent) {
    const server = await listen(app);
    servers.push(server);
    return toAnswer(await send(server.origin, { path: '/verify', ...sent }));
  },
};

function toAnswer(answer: RawResponse): Answer {
  const type = answer.headers['content-type'];
  return { status: answer.status, type: typeof type === 'string' ? type : null, text: answer.text };
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-api-key': KEY, 'content-type': 'application/json', ...extra };
}

function appWith(
  options: Partial<VerificationEndpointOptions> = {},
  before: MiddlewareHandler[] = [],
): { app: Hono; errors: unknown[] } {
  const errors: unknown[] = [];
  const app = new Hono();
  if (before.length > 0) app.use('/verify', ...before);
  app.all(
    '/verify',
    verificationEndpoint({
      apiKey: KEY,
      verify: () => ok('Claimed!'),
      onError: (error) => errors.push(error),
      ...options,
    } as VerificationEndpointOptions),
  );
  return { app, errors };
}

/** Asserts the contract's shape and returns the message. */
function messageOf(answer: Answer, status: 200 | 400): string {
  expect(answer.status).toBe(status);
  expect(answer.type).toBe(JSON_TYPE);
  const body: unknown = JSON.parse(answer.text);
  expect(Object.keys(body as object)).toEqual(['message']);
  const { message } = body as { message: unknown };
  expect(typeof message).toBe('string');
  expect((message as string).trim()).not.toBe('');
  expect(answer.text).not.toContain(KEY);
  expect(answer.text).not.toContain(OLD_KEY);
  return message as string;
}

describe.each([inProcess, overHttp])('verificationEndpoint over $name', (transport) => {
  const call = (app: Hono, sent: Sent = {}) =>
    transport.send(app, { headers: headers(), body: BODY, ...sent });

  it('answers 200 {message} when the handler verifies the claim', async () => {
    const verify = vi.fn(() => ok('Claimed!'));
    const { app } = appWith({ verify });
    expect(messageOf(await call(app), 200)).toBe('Claimed!');
    expect(verify).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'r-1', accounts: claim.accounts }),
    );
  });

  it('answers 400 with the handler message on fail()', async () => {
    const { app } = appWith({ verify: () => fail('Subscribe first.') });
    expect(messageOf(await call(app), 400)).toBe('Subscribe first.');
  });

  it('lets Hono compute content-length for a non-ASCII message', async () => {
    const { app } = appWith({ verify: () => ok('Merci, Zoë ✓ 🎉') });
    expect(messageOf(await call(app), 200)).toBe('Merci, Zoë ✓ 🎉');
  });

  describe('invariant 1: 200 or 400 JSON {message} for every input', () => {
    const cases: [string, Sent][] = [
      ['a wrong API key', { headers: headers({ 'x-api-key': 'nope' }) }],
      ['no API key', { headers: { 'content-type': 'application/json' } }],
      ['malformed JSON', { body: '{"userId":' }],
      ['an empty body', { body: '' }],
      ['a JSON array', { body: '[1,2]' }],
      ['invalid UTF-8', { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }],
      [
        'a form body',
        {
          body: 'userId=u-1',
          headers: headers({ 'content-type': 'application/x-www-form-urlencoded' }),
        },
      ],
      ['a text/plain body', { body: 'hello', headers: headers({ 'content-type': 'text/plain' }) }],
      ['no content type', { body: '{', headers: { 'x-api-key': KEY } }],
      ['GET', { method: 'GET' }],
      ['PUT', { method: 'PUT' }],
      ['DELETE', { method: 'DELETE' }],
      ['PATCH', { method: 'PATCH' }],
      ['OPTIONS', { method: 'OPTIONS' }],
    ];
    it.each(cases)('%s: 400', async (_name, sent) => {
      const { app } = appWith();
      messageOf(await call(app, sent), 400);
    });

    it('HEAD: 400 without a body', async () => {
      const { app } = appWith();
      const answer = await call(app, { method: 'HEAD' });
      expect(answer.status).toBe(400);
      expect(answer.text).toBe('');
    });

    it('a correct claim with another content type is still judged on its body', async () => {
      const { app } = appWith();
      messageOf(await call(app, { headers: headers({ 'content-type': 'text/plain' }) }), 200);
    });

    it('a body over maxBodyBytes: 400, not 413', async () => {
      const { app } = appWith({ maxBodyBytes: 1024 });
      const big = JSON.stringify({ ...claim, padding: 'x'.repeat(4096) });
      expect(messageOf(await call(app, { body: big }), 400)).toBe(
        'The claim request is too large.',
      );
    });

    it.each([
      [
        'throws',
        () => {
          throw new Error('db password is hunter2');
        },
      ],
      ['rejects', () => Promise.reject(new Error('db password is hunter2'))],
      ['returns garbage', () => ({ status: 'yes' }) as unknown as ReturnType<typeof ok>],
    ])('a handler that %s: 400 with a generic message, error to onError (invariant 5)', async (_name, verify) => {
      const { app, errors } = appWith({ verify });
      expect(messageOf(await call(app), 400)).toBe(HANDLER_ERROR);
      expect(errors).toHaveLength(1);
    });
  });

  it('invariant 2: a hanging handler gets 400 at the deadline, its signal aborted', async () => {
    let signal: AbortSignal | undefined;
    const { app } = appWith({
      timeoutMs: 100,
      verify: (ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    expect(messageOf(await call(app), 400)).toBe(
      'Verification took too long. Please try again in a minute.',
    );
    expect(signal?.aborted).toBe(true);
  });

  it('invariant 3: every key of a rotation is accepted; no key is ever echoed', async () => {
    const { app } = appWith({ apiKey: [KEY, OLD_KEY] });
    messageOf(await call(app), 200);
    messageOf(await call(app, { headers: headers({ 'x-api-key': OLD_KEY }) }), 200);
    const wrong = await call(app, { headers: headers({ 'x-api-key': `${KEY}x` }) });
    expect(messageOf(wrong, 400)).not.toContain('x');
  });

  it('invariant 4: unknown fields are tolerated, a missing one is named', async () => {
    const { app } = appWith();
    const extra = JSON.stringify({ ...claim, newField: 1, accounts: { ...claim.accounts, x: 1 } });
    messageOf(await call(app, { body: extra }), 200);
    const { requestId: _, ...missing } = claim;
    expect(messageOf(await call(app, { body: JSON.stringify(missing) }), 400)).toContain(
      'requestId',
    );
  });

  describe('order independence: the body read once by Hono', () => {
    const readers: [string, MiddlewareHandler][] = [
      [
        'c.req.json()',
        async (c, next) => {
          await c.req.json();
          await next();
        },
      ],
      [
        'c.req.text()',
        async (c, next) => {
          await c.req.text();
          await next();
        },
      ],
      [
        'c.req.arrayBuffer()',
        async (c, next) => {
          await c.req.arrayBuffer();
          await next();
        },
      ],
      [
        'c.req.blob()',
        async (c, next) => {
          await c.req.blob();
          await next();
        },
      ],
      ['a json validator', validator('json', (value) => value)],
    ];

    it.each(readers)('reuses a body an earlier %s read', async (_name, reader) => {
      const verify = vi.fn(() => ok('Claimed!'));
      const { app } = appWith({ verify }, [reader]);
      messageOf(await call(app), 200);
      expect(verify).toHaveBeenCalledWith(expect.objectContaining({ claim }));
    });

    it('reads a body whose stream an earlier middleware made but did not read', async () => {
      const toucher: MiddlewareHandler = async (c, next) => {
        expect(c.req.raw.body).not.toBeNull();
        await next();
      };
      const { app } = appWith({}, [toucher]);
      expect(messageOf(await call(app), 200)).toBe('Claimed!');
    });

    it('judges the request a middleware put in place of c.req.raw', async () => {
      const replacer: MiddlewareHandler = async (c, next) => {
        const headers = new Headers(c.req.raw.headers);
        headers.set('x-api-key', 'replaced');
        c.req.raw = new Request(c.req.raw, { headers });
        await next();
      };
      const { app } = appWith({}, [replacer]);
      expect(messageOf(await call(app), 400)).toContain('did not accept the API key');
    });

    it('gives its own 400 for bad JSON an earlier middleware failed to parse', async () => {
      const lenient: MiddlewareHandler = async (c, next) => {
        await c.req.json().catch(() => undefined);
        await next();
      };
      const { app } = appWith({}, [lenient]);
      expect(messageOf(await call(app, { body: '{"userId":' }), 400)).toBe(
        'The claim request is not valid JSON.',
      );
    });

    it('keeps the size limit on a body an earlier middleware read', async () => {
      const reader: MiddlewareHandler = async (c, next) => {
        await c.req.text();
        await next();
      };
      const { app } = appWith({ maxBodyBytes: 100 }, [reader]);
      messageOf(await call(app, { body: JSON.stringify({ ...claim, pad: 'x'.repeat(200) }) }), 400);
    });

    it.each([
      ['read to the end', (request: Request) => request.text()],
      [
        'iterated to the end',
        async (request: Request) => {
          for await (const _ of request.body ?? []) {
            // drained
          }
        },
      ],
      [
        'locked by a reader',
        async (request: Request) => {
          await request.body?.getReader().read();
        },
      ],
    ])('answers 400 at once when c.req.raw was %s around Hono', async (_name, consume) => {
      const thief: MiddlewareHandler = async (c, next) => {
        await consume(c.req.raw);
        await next();
      };
      const { app } = appWith({}, [thief]);
      expect(messageOf(await call(app), 400)).toBe(
        'The claim request could not be read. Please try again.',
      );
    });
  });
});

describe('verificationEndpoint over real HTTP: bodies that never end', () => {
  it('answers 400 at the deadline to an upload that never finishes', async () => {
    const { app } = appWith({ timeoutMs: 150 });
    const server = await listen(app);
    servers.push(server);
    const answer = await send(server.origin, {
      path: '/verify',
      headers: headers({ 'transfer-encoding': 'chunked' }),
      body: '{"userId":"u-1",',
      open: true,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      message: 'Verification took too long. Please try again in a minute.',
    });
  });

  it('answers 400 at the deadline when an earlier middleware started a read that never ends', async () => {
    const starter: MiddlewareHandler = async (c, next) => {
      void c.req.text().catch(() => undefined);
      await next();
    };
    const { app } = appWith({ timeoutMs: 150 }, [starter]);
    const server = await listen(app);
    servers.push(server);
    const answer = await send(server.origin, {
      path: '/verify',
      headers: headers({ 'transfer-encoding': 'chunked' }),
      body: '{',
      open: true,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toContain('took too long');
  });

  it('answers 400 when a Node-style middleware drained the request under Hono', async () => {
    const drainer: MiddlewareHandler = async (c, next) => {
      const incoming = (c.env as { incoming: NodeJS.ReadableStream }).incoming;
      for await (const _chunk of incoming) {
        // drained, as a Node body parser would
      }
      await next();
    };
    const { app } = appWith({ timeoutMs: 1000 }, [drainer]);
    const server = await listen(app);
    servers.push(server);
    const answer = await send(server.origin, { path: '/verify', headers: headers(), body: BODY });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ message: expect.any(String) });
  });

  it('refuses a wrong key before reading a never-ending body', async () => {
    const { app } = appWith({ timeoutMs: 5000 });
    const server = await listen(app);
    servers.push(server);
    const answer = await send(server.origin, {
      path: '/verify',
      headers: headers({ 'x-api-key': 'wrong', 'transfer-encoding': 'chunked' }),
      body: '{',
      open: true,
      timeoutMs: 4000,
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text).message).toContain('did not accept the API key');
  });

  it('refuses oversize uploads without wedging a kept-alive connection', async () => {
    const { app } = appWith({ maxBodyBytes: 1024 });
    const server = await listen(app);
    servers.push(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const big = new Uint8Array(512 * 1024).fill(0x20);
    const post = (extra: Record<string, string>, body: string | Uint8Array = big) =>
      send(server.origin, { path: '/verify', headers: headers(extra), body, agent });
    try {
      // Refused on its declared length before a byte is read: core drains the rest of the
      // stream (512 KiB, within its bounds) before it answers, and the connection stays open.
      const declared = await post({});
      expect(messageOf(toAnswer(declared), 400)).toBe('The claim request is too large.');
      expect(declared.headers.connection).toBe('keep-alive');
      const wrongKey = await post({ 'x-api-key': 'wrong' });
      messageOf(toAnswer(wrongKey), 400);
      expect(wrongKey.headers.connection).toBe('keep-alive');
      // Refused halfway through reading a chunked body: core drains the rest (512 KiB, within its
      // bounds) before it answers, so the connection stays open and the next request is framed.
      const chunked = await post({ 'transfer-encoding': 'chunked' });
      expect(messageOf(toAnswer(chunked), 400)).toBe('The claim request is too large.');
      expect(chunked.headers.connection).toBe('keep-alive');
      const next = await post({}, BODY);
      expect(messageOf(toAnswer(next), 200)).toBe('Claimed!');
    } finally {
      agent.destroy();
    }
  });
});
