import { ok } from '@questkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  API_KEY,
  claim,
  EXPRESS_VERSIONS,
  type ExpressApp,
  jsonOf,
  listen,
  send,
} from './http.testkit.js';
import { verificationEndpoint } from './verification.js';

// A parser on the endpoint's own route keeps its failures in the contract, but it reads the body
// before the endpoint checks the key; the README's setup (the endpoint before any parser) answers
// a keyless request at once.
describe.each(EXPRESS_VERSIONS)('body parsers around the endpoint on $name', ({ express }) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function serve(mount: (app: ExpressApp) => void): Promise<string> {
    const app = express();
    mount(app);
    const server = await listen(app);
    close = server.close;
    return `${server.origin}/verify`;
  }

  const routeParser = (app: ExpressApp) =>
    app.post(
      '/verify',
      express.json(),
      verificationEndpoint({ apiKey: API_KEY, verify: () => ok('Done.') }),
    );

  it('answers bad JSON through a parser on its own route with 400 {message}, not an HTML page', async () => {
    const url = await serve(routeParser);
    const reply = await send(url, {
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: '{"userId": ',
    });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(jsonOf(reply)).toEqual({ message: 'The claim request is not valid JSON.' });
  });

  it('answers a 5 MB body through a parser on its own route with 400 {message}', async () => {
    const url = await serve(routeParser);
    const reply = await send(url, {
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(claim({ padding: 'x'.repeat(5 * 1024 * 1024) })),
    });
    expect(reply.status).toBe(400);
    expect(jsonOf(reply)).toEqual({ message: 'The claim request is too large.' });
  });

  it('still checks the key first, and claims a good request, with the parser on its route', async () => {
    const url = await serve(routeParser);
    const json = { 'content-type': 'application/json' };
    const wrong = await send(url, {
      headers: { ...json, 'x-api-key': 'nope' },
      body: '{"userId": ',
    });
    expect(jsonOf(wrong)).toEqual({ message: expect.stringMatching(/did not accept the API key/) });
    const good = await send(url, {
      headers: { ...json, 'x-api-key': API_KEY },
      body: JSON.stringify(claim()),
    });
    expect(good.status).toBe(200);
    expect(jsonOf(good)).toEqual({ message: 'Done.' });
  });

  it('with a parser on its own route, answers a keyless trickled body only after its last byte', async () => {
    // What the README warns of: body-parser reads the whole body, with no read timeout, before
    // the endpoint can check the key. Six chunks here; a client may trickle for minutes.
    const url = await serve(routeParser);
    const total = 6;
    let sent = 0;
    async function* trickle() {
      for (let i = 0; i < total; i++) {
        sent++;
        yield i === 0 ? '{' : ' ';
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      yield '}';
    }
    const reply = await send(url, {
      headers: { 'content-type': 'application/json' },
      body: trickle(),
      timeoutMs: 9000,
    });
    expect(jsonOf(reply)).toEqual({
      message: expect.stringMatching(/did not receive the API key/),
    });
    expect(sent).toBe(total);
  });

  // The README's setup: the endpoint before the app-level parser.
  const recommended = (app: ExpressApp) => {
    app.all('/verify', verificationEndpoint({ apiKey: API_KEY, verify: () => ok('Done.') }));
    app.use(express.json({ limit: '20mb' }));
  };

  it('refuses a keyless body trickled in slowly at once, without waiting for it', async () => {
    const url = await serve(recommended);
    let sent = 0;
    async function* trickle() {
      for (let i = 0; i < 40; i++) {
        sent++;
        yield 'x';
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    const started = Date.now();
    const reply = await send(url, {
      headers: { 'content-type': 'application/json' },
      body: trickle(),
      timeoutMs: 9000,
    });
    expect(reply.status).toBe(400);
    expect(jsonOf(reply)).toEqual({
      message: expect.stringMatching(/did not receive the API key/),
    });
    expect(reply.headers.connection).toBe('close');
    // Answered long before the 40 chunks (10 s) were sent.
    expect(sent).toBeLessThan(40);
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it('refuses a keyless request that declares 10 MB and never sends them', async () => {
    const url = await serve(recommended);
    async function* never() {
      yield '{';
      await new Promise((resolve) => setTimeout(resolve, 20_000).unref());
    }
    const reply = await send(url, {
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      body: never(),
      timeoutMs: 9000,
    });
    expect(reply.status).toBe(400);
    expect(jsonOf(reply)).toEqual({
      message: expect.stringMatching(/did not receive the API key/),
    });
    expect(reply.headers.connection).toBe('close');
  });
});
