import { DEFAULT_MESSAGES, fail, ok, type ResultEvent } from '@questkit/core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API_KEY,
  claim,
  EXPRESS_VERSIONS,
  type ExpressApp,
  jsonOf,
  listen,
  type Reply,
  send,
} from './http.testkit.js';
import { verificationEndpoint, verificationErrors } from './verification.js';

type Express = (typeof EXPRESS_VERSIONS)[number]['express'];
type Endpoint = ReturnType<typeof verificationEndpoint>;

/** Where the body parser sits, if any: the endpoint must answer the same in every case. */
const SETUPS: readonly {
  name: string;
  mount: (x: Express, app: ExpressApp, ep: Endpoint) => void;
}[] = [
  { name: 'no parser', mount: (_, app, ep) => app.all('/verify', ep) },
  {
    name: 'app-level express.json()',
    mount: (x, app, ep) => app.use(x.json()).all('/verify', ep),
  },
  { name: 'route-level express.json()', mount: (x, app, ep) => app.all('/verify', x.json(), ep) },
  {
    name: 'express.text() for every type',
    mount: (x, app, ep) => app.use(x.text({ type: '*/*' })).all('/verify', ep),
  },
  {
    name: 'express.raw() for every type',
    mount: (x, app, ep) => app.use(x.raw({ type: '*/*' })).all('/verify', ep),
  },
  {
    name: 'express.urlencoded(), which does not match',
    mount: (x, app, ep) => app.use(x.urlencoded({ extended: false })).all('/verify', ep),
  },
];

const JSON_HEADERS = { 'content-type': 'application/json', 'x-api-key': API_KEY };

function expectContract(reply: Reply, status: 200 | 400, message?: string): void {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = jsonOf(reply) as { message: unknown };
  expect(Object.keys(body ?? {})).toEqual(['message']);
  expect(typeof body.message === 'string' && body.message.trim().length > 0).toBe(true);
  if (message !== undefined) expect(body.message).toBe(message);
}

function endpoint(overrides: Partial<Parameters<typeof verificationEndpoint>[0]> = {}) {
  return verificationEndpoint({
    apiKey: API_KEY,
    requires: ['email'],
    verify: ({ accounts }) =>
      accounts.email.endsWith('@example.com') ? ok(`Verified ${accounts.email}`) : fail('Nope.'),
    onError: () => {},
    ...overrides,
  });
}

async function* chunks(chunk: string, count: number, delayMs = 0): AsyncIterable<string> {
  for (let i = 0; i < count; i++) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield chunk;
  }
}

describe.each(EXPRESS_VERSIONS)('verificationEndpoint on $name', ({ express }) => {
  describe.each(SETUPS)('with $name', ({ mount }) => {
    let server: Awaited<ReturnType<typeof listen>>;
    let url: string;
    beforeAll(async () => {
      const app = express();
      const ep = endpoint();
      mount(express, app, ep);
      app.use('/verify', verificationErrors(ep));
      server = await listen(app);
      url = `${server.origin}/verify`;
    });
    afterAll(() => server.close());

    it('answers 200 {message} for a valid claim', async () => {
      const reply = await send(url, { headers: JSON_HEADERS, body: JSON.stringify(claim()) });
      expectContract(reply, 200, 'Verified member@example.com');
    });

    it('tolerates unknown fields', async () => {
      const body = JSON.stringify(
        claim({ newField: { nested: true }, accounts: { email: 'a@example.com', x: 1 } }),
      );
      expectContract(
        await send(url, { headers: JSON_HEADERS, body }),
        200,
        'Verified a@example.com',
      );
    });

    it('answers 400 {message} naming a missing field', async () => {
      const { requestId: _, ...rest } = claim();
      const reply = await send(url, { headers: JSON_HEADERS, body: JSON.stringify(rest) });
      expectContract(reply, 400);
      expect(reply.text).toContain('requestId');
    });

    it('answers 400 for a wrong or missing API key, without echoing it', async () => {
      const body = JSON.stringify(claim());
      const wrong = await send(url, {
        headers: { ...JSON_HEADERS, 'x-api-key': 'guess-123' },
        body,
      });
      expectContract(wrong, 400, DEFAULT_MESSAGES.badKey);
      expect(wrong.text).not.toContain('guess-123');
      const missing = await send(url, { headers: { 'content-type': 'application/json' }, body });
      expectContract(missing, 400, DEFAULT_MESSAGES.missingKey);
    });

    it('answers 400 for malformed JSON', async () => {
      const reply = await send(url, { headers: JSON_HEADERS, body: '{"userId": "u1",' });
      expectContract(reply, 400, DEFAULT_MESSAGES.badJson);
    });

    it('answers 400 for an empty body', async () => {
      expectContract(await send(url, { headers: JSON_HEADERS, body: '' }), 400);
      expectContract(await send(url, { headers: { 'x-api-key': API_KEY } }), 400);
    });

    it('reads a JSON claim sent with another or no content type', async () => {
      const body = JSON.stringify(claim());
      const text = await send(url, {
        headers: { 'x-api-key': API_KEY, 'content-type': 'text/plain' },
        body,
      });
      expectContract(text, 200, 'Verified member@example.com');
      const none = await send(url, { headers: { 'x-api-key': API_KEY }, body });
      expectContract(none, 200, 'Verified member@example.com');
    });

    it('answers 400 for a body over the limit, declared or chunked', async () => {
      const big = JSON.stringify(claim({ padding: 'x'.repeat(200_000) }));
      const declared = await send(url, { headers: JSON_HEADERS, body: big });
      expectContract(declared, 400, DEFAULT_MESSAGES.bodyTooLarge);
      const chunked = await send(url, {
        headers: JSON_HEADERS,
        body: chunks('x'.repeat(8192), 40),
      });
      expectContract(chunked, 400, DEFAULT_MESSAGES.bodyTooLarge);
    });

    it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('answers 400 to %s', async (method) => {
      const body = method === 'GET' || method === 'OPTIONS' ? undefined : '{"broken":';
      const reply = await send(url, { method, headers: JSON_HEADERS, body });
      expectContract(reply, 400, DEFAULT_MESSAGES.methodNotAllowed);
    });
  });

  describe('body reading', () => {
    it('reads the stream when express.urlencoded() left req.body as {} (Express 4)', async () => {
      const app = express();
      let seen: unknown = 'not called';
      app.use(express.urlencoded({ extended: false }), (req, _res, next) => {
        seen = req.body;
        next();
      });
      app.post('/verify', endpoint());
      const reply = await request(app).post('/verify').set(JSON_HEADERS).send(claim());
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: 'Verified member@example.com' });
      // The case this guards: body-parser 1 sets {} without reading; body-parser 2 leaves it unset.
      expect(seen).toEqual(express === EXPRESS_VERSIONS[0].express ? {} : undefined);
    });

    it('answers 400 at once when a middleware drained the stream and kept nothing', async () => {
      const app = express();
      app.use(async (req, _res, next) => {
        for await (const _ of req) {
          // drain
        }
        next();
      });
      app.post('/verify', endpoint());
      const server = await listen(app);
      try {
        const reply = await send(`${server.origin}/verify`, {
          headers: JSON_HEADERS,
          body: JSON.stringify(claim()),
          timeoutMs: 2000,
        });
        expectContract(reply, 400, DEFAULT_MESSAGES.badJson);
      } finally {
        await server.close();
      }
    });

    it('answers 400 before the deadline to a body that never ends, and closes the connection', async () => {
      const app = express();
      app.post('/verify', endpoint({ timeoutMs: 300 }));
      const server = await listen(app);
      try {
        // 2 bytes every 20 ms: under the size limit, it would last far longer than the deadline.
        const reply = await send(`${server.origin}/verify`, {
          headers: JSON_HEADERS,
          body: chunks('  ', 500, 20),
          timeoutMs: 9000,
        });
        expectContract(reply, 400, DEFAULT_MESSAGES.timeout);
        expect(reply.headers.connection).toBe('close');
      } finally {
        await server.close();
      }
    });

    it('keeps the connection open after a body read in full', async () => {
      const app = express();
      app.post('/verify', endpoint());
      const server = await listen(app);
      try {
        const reply = await send(`${server.origin}/verify`, {
          headers: JSON_HEADERS,
          body: JSON.stringify(claim()),
        });
        expectContract(reply, 200);
        expect(reply.headers.connection).toBe('keep-alive');
      } finally {
        await server.close();
      }
    });

    it('works in a router mounted with app.use', async () => {
      const app = express();
      const router = express.Router();
      router.post('/verify', endpoint());
      app.use('/hooks', express.json(), router);
      const reply = await request(app).post('/hooks/verify').set(JSON_HEADERS).send(claim());
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: 'Verified member@example.com' });
    });
  });

  describe('handlers', () => {
    const cases = [
      [
        'throws',
        () => {
          throw new Error('db password leaked');
        },
      ],
      ['rejects', () => Promise.reject(new Error('db password leaked'))],
      ['returns garbage', () => ({ claimed: true }) as never],
    ] as const;

    it.each(cases)('answers 400 with a generic message when the handler %s', async (_, verify) => {
      const onError = vi.fn();
      const app = express();
      app.post('/verify', endpoint({ verify, onError }));
      const reply = await request(app).post('/verify').set(JSON_HEADERS).send(claim());
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.body).toEqual({ message: DEFAULT_MESSAGES.handlerError });
      expect(onError).toHaveBeenCalledOnce();
    });

    it('answers 400 with the timeout message when the handler hangs', async () => {
      const app = express();
      app.post('/verify', endpoint({ timeoutMs: 100, verify: () => new Promise(() => {}) }));
      const reply = await request(app).post('/verify').set(JSON_HEADERS).send(claim());
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message: DEFAULT_MESSAGES.timeout });
    });

    it('reports every answer to onResult without the key', async () => {
      const events: ResultEvent[] = [];
      const app = express();
      app.post('/verify', endpoint({ onResult: (event) => events.push(event) }));
      await request(app).post('/verify').set(JSON_HEADERS).send(claim());
      await request(app)
        .post('/verify')
        .set({ ...JSON_HEADERS, 'x-api-key': 'nope' })
        .send('{}');
      expect(events.map((event) => [event.status, event.reason])).toEqual([
        [200, 'ok'],
        [400, 'bad_key'],
      ]);
      expect(JSON.stringify(events)).not.toContain(API_KEY);
    });
  });
});

describe('verificationEndpoint: start-up errors', () => {
  it('throws a TypeError for missing options, as core does', () => {
    expect(() => verificationEndpoint({ apiKey: API_KEY } as never)).toThrow(TypeError);
    expect(() => verificationEndpoint({ apiKey: '', verify: () => ok() })).toThrow(
      /\[@questkit\/core\] apiKey/,
    );
  });
});
