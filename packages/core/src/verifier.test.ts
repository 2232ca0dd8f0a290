import { describe, expect, it, vi } from 'vitest';
import { fail, ok } from './results.js';
import {
  type ClaimInput,
  createVerifier,
  defineQuest,
  type ResultEvent,
  type VerifierOptions,
} from './verifier/index.js';

const KEY = 'test-key-0123456789';
const claim = {
  userId: 'u-1',
  communityId: 'c-1',
  subdomain: 'demo',
  questId: 'q-1',
  requestId: 'r-1',
  accounts: { email: 'ada@example.com', discord: { id: '42', handle: 'ada' } },
};

function verifierWith(options: Partial<VerifierOptions<never>> = {}) {
  const results: ResultEvent[] = [];
  const errors: unknown[] = [];
  const verifier = createVerifier({
    apiKey: KEY,
    verify: () => ok('Claimed!'),
    onResult: (event) => results.push(event),
    onError: (error) => errors.push(error),
    ...options,
  } as VerifierOptions<never>);
  return { verifier, results, errors };
}

async function send(
  verifier: { fetch(r: Request): Promise<Response> },
  body: BodyInit | null = JSON.stringify(claim),
  init: { method?: string; headers?: Record<string, string> } = {},
) {
  const method = init.method ?? 'POST';
  const response = await verifier.fetch(
    new Request('http://127.0.0.1/verify', {
      method,
      headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...init.headers },
      body: method === 'GET' || method === 'HEAD' ? null : body,
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    json: JSON.parse(text),
  };
}

describe('createVerifier: answers', () => {
  it('answers 200 {message} when the handler returns ok()', async () => {
    const { verifier, results } = verifierWith();
    const answer = await send(verifier);
    expect(answer).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      json: { message: 'Claimed!' },
    });
    expect(results.map((r) => r.reason)).toEqual(['ok']);
    expect(results[0]).toMatchObject({
      requestId: 'r-1',
      questId: 'q-1',
      userId: 'u-1',
      status: 200,
    });
  });

  it('answers 400 with the handler message on fail()', async () => {
    const { verifier, results } = verifierWith({ verify: () => fail('Subscribe first.') });
    expect(await send(verifier)).toMatchObject({
      status: 400,
      json: { message: 'Subscribe first.' },
    });
    expect(results[0]?.reason).toBe('failed');
  });

  it('gives the handler the typed claim, accounts, requestId and a live signal', async () => {
    const seen = vi.fn();
    const { verifier } = verifierWith({
      verify: (ctx) => {
        seen(ctx.claim, ctx.accounts, ctx.requestId, ctx.signal.aborted, ctx.deadline > Date.now());
        return ok();
      },
    });
    await send(verifier, JSON.stringify({ ...claim, extra: 'tolerated' }));
    expect(seen).toHaveBeenCalledWith(claim, claim.accounts, 'r-1', false, true);
  });

  it('gives {} as accounts when the claim has none', async () => {
    let accounts: unknown;
    const { verifier } = verifierWith({
      verify: (ctx) => {
        accounts = ctx.accounts;
        return ok();
      },
    });
    const { accounts: _, ...bare } = claim;
    expect((await send(verifier, JSON.stringify(bare))).status).toBe(200);
    expect(accounts).toEqual({});
  });
});

describe('createVerifier: API key', () => {
  it.each([
    ['missing', {}, 'missing_key'],
    ['empty', { 'x-api-key': '' }, 'missing_key'],
    ['wrong', { 'x-api-key': 'nope' }, 'bad_key'],
    ['a prefix of the key', { 'x-api-key': KEY.slice(0, -1) }, 'bad_key'],
    ['the key plus a byte', { 'x-api-key': `${KEY}x` }, 'bad_key'],
  ])('answers 400 when the key is %s, without calling the handler', async (_, headers, reason) => {
    const verify = vi.fn(() => ok());
    const { verifier, results } = verifierWith({ verify });
    const request = new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: headers as Record<string, string>,
      body: JSON.stringify(claim),
    });
    const response = await verifier.fetch(request);
    const body = await response.json();
    expect(response.status).toBe(400);
    expect(body.message).not.toContain(KEY);
    expect(results[0]?.reason).toBe(reason);
    expect(verify).not.toHaveBeenCalled();
  });

  it('accepts every key of a rotation list', async () => {
    const verifier = createVerifier({ apiKey: ['old-key', 'new-key'], verify: () => ok() });
    for (const key of ['old-key', 'new-key']) {
      expect(
        (await send(verifier, JSON.stringify(claim), { headers: { 'x-api-key': key } })).status,
      ).toBe(200);
    }
    expect(
      (await send(verifier, JSON.stringify(claim), { headers: { 'x-api-key': 'other' } })).status,
    ).toBe(400);
  });

  it('runs without a key only when apiKey is false', async () => {
    const verifier = createVerifier({ apiKey: false, verify: () => ok() });
    const response = await verifier.fetch(
      new Request('http://127.0.0.1/', { method: 'POST', body: JSON.stringify(claim) }),
    );
    expect(response.status).toBe(200);
  });

  it.each([
    [undefined],
    [''],
    [[]],
    [['']],
    [null],
  ])('throws at construction for apiKey %j', (apiKey) => {
    expect(() => createVerifier({ apiKey: apiKey as never, verify: () => ok() })).toThrow(/apiKey/);
  });

  it('names the environment variable the quick starts read when the key is unset', () => {
    expect(() =>
      createVerifier({ apiKey: process.env.QUESTKIT_UNSET_VARIABLE as never, verify: () => ok() }),
    ).toThrow(/apiKey is undefined: is QUEST_API_KEY \(or the variable you read it from\) set\?/);
  });
});

describe('createVerifier: bad requests', () => {
  it.each([
    ['invalid JSON', '{"userId":', 'bad_json'],
    ['an empty body', '', 'bad_json'],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), 'bad_json'],
    ['a JSON array', '[]', 'invalid_request'],
    ['JSON null', 'null', 'invalid_request'],
    ['a JSON string', '"hello"', 'invalid_request'],
  ])('answers 400 for %s', async (_, body, reason) => {
    const { verifier, results } = verifierWith();
    const answer = await send(verifier, body as BodyInit);
    expect(answer.status).toBe(400);
    expect(typeof answer.json.message).toBe('string');
    expect(results[0]?.reason).toBe(reason);
  });

  it.each([
    'userId',
    'communityId',
    'subdomain',
    'questId',
    'requestId',
  ])('names the missing field %s', async (field) => {
    const { verifier } = verifierWith();
    const body: Record<string, unknown> = { ...claim };
    delete body[field];
    const answer = await send(verifier, JSON.stringify(body));
    expect(answer).toMatchObject({ status: 400 });
    expect(answer.json.message).toBe(`The claim request is invalid: ${field} is missing.`);
  });

  it('names a field of the wrong type, nested ones with their path', async () => {
    const { verifier } = verifierWith();
    const wrongType = await send(verifier, JSON.stringify({ ...claim, userId: 42 }));
    expect(wrongType.json.message).toBe('The claim request is invalid: userId must be a string.');
    const nested = await send(
      verifier,
      JSON.stringify({ ...claim, accounts: { discord: { id: 1, handle: 'a' } } }),
    );
    expect(nested.json.message).toBe(
      'The claim request is invalid: accounts.discord.id must be a string.',
    );
  });

  it('answers 400 for any method but POST, without reading the body', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
      const { verifier, results } = verifierWith();
      const response = await verifier.fetch(
        new Request('http://127.0.0.1/', { method, headers: { 'x-api-key': KEY } }),
      );
      expect(response.status).toBe(400);
      expect(results[0]?.reason).toBe('method_not_allowed');
    }
  });

  it('refuses a body over maxBodyBytes, by declared length or by counting', async () => {
    const { verifier, results } = verifierWith({ maxBodyBytes: 100 });
    const big = JSON.stringify({ ...claim, padding: 'x'.repeat(200) });
    expect((await send(verifier, big)).status).toBe(400);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(50).fill(32));
        controller.close();
      },
    });
    const response = await verifier.fetch(
      new Request('http://127.0.0.1/', {
        method: 'POST',
        headers: { 'x-api-key': KEY },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(results.map((r) => r.reason)).toEqual(['body_too_large', 'body_too_large']);
  });

  it('answers 400 when the body stream errors', async () => {
    const { verifier, results } = verifierWith();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const decision = await verifier.decide({
      method: 'POST',
      headers: { 'x-api-key': KEY },
      body: stream,
    });
    expect(decision.status).toBe(400);
    expect(results[0]?.reason).toBe('unreadable_body');
  });

  it('answers 400 timeout when the body trickles past the deadline', async () => {
    const { verifier, results } = verifierWith({ timeoutMs: 50 });
    const never = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const decision = await verifier.decide({
      method: 'POST',
      headers: { 'x-api-key': KEY },
      body: never,
    });
    expect(decision).toMatchObject({ status: 400, reason: 'timeout' });
    expect(results[0]?.reason).toBe('timeout');
  });
});

describe('createVerifier: decide() from plain data', () => {
  it('accepts raw text and Node-style header records with repeated values', async () => {
    const { verifier } = verifierWith();
    const decision = await verifier.decide({
      headers: { 'x-api-key': KEY },
      body: JSON.stringify(claim),
    });
    expect(decision.status).toBe(200);
    const twice = await verifier.decide({
      headers: { 'x-api-key': [KEY, KEY] },
      body: JSON.stringify(claim),
    });
    expect(twice.reason).toBe('bad_key');
  });

  it('accepts an async iterable of chunks, as a Node request is', async () => {
    const { verifier } = verifierWith();
    const text = JSON.stringify(claim);
    async function* chunks() {
      yield new TextEncoder().encode(text.slice(0, 10));
      yield text.slice(10);
    }
    expect((await verifier.decide({ headers: { 'x-api-key': KEY }, body: chunks() })).status).toBe(
      200,
    );
  });

  // From untyped JavaScript: whatever the shape, an answer, never a rejection.
  it.each([
    ['a method that is not a string', { method: 5, headers: { 'x-api-key': KEY }, body: '{}' }],
    ['no headers', { body: JSON.stringify(claim) }],
    ['headers of null', { headers: null, body: JSON.stringify(claim) }],
  ])('answers 400 to %s, and tells onError', async (_, input) => {
    const { verifier, results, errors } = verifierWith();
    const decision = await verifier.decide(input as unknown as ClaimInput);
    expect(decision).toMatchObject({ status: 400, reason: 'handler_error' });
    expect(results.map((result) => result.status)).toEqual([400]);
    expect(errors).toHaveLength(1);
  });
});

describe('createVerifier: the deadline timer', () => {
  // One timer per request is the deadline's; a handler that answers at once needs none.
  it.each([
    { handler: 'answers at once', verify: () => ok('Claimed!'), timers: 0 },
    { handler: 'returns a promise', verify: async () => ok('Claimed!'), timers: 1 },
  ])('arms $timers timers when the handler $handler', async ({ verify, timers }) => {
    const { verifier } = verifierWith({ verify });
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const decision = await verifier.decide({
        headers: { 'x-api-key': KEY },
        body: JSON.stringify(claim),
      });
      expect(decision).toMatchObject({ status: 200, body: { message: 'Claimed!' } });
      expect(setTimeoutSpy).toHaveBeenCalledTimes(timers);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});

describe('createVerifier: handler faults', () => {
  it.each([
    [
      'throws',
      () => {
        throw new Error('db down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('db down'))],
    ['returns garbage', () => ({ claimed: true, message: 'forged' })],
    ['returns undefined', () => undefined],
    ['returns a string', () => 'yes'],
  ])('answers 400 handler_error when the handler %s, and tells onError', async (_, verify) => {
    const { verifier, results, errors } = verifierWith({ verify: verify as never });
    const answer = await send(verifier);
    expect(answer).toMatchObject({
      status: 400,
      json: { message: 'We could not verify this right now. Please try again later.' },
    });
    expect(answer.json.message).not.toContain('db down');
    expect(results[0]?.reason).toBe('handler_error');
    expect(errors).toHaveLength(1);
  });

  it("answers a thenable whose then throws as the handler's error, keeping the connection", async () => {
    const infos: unknown[] = [];
    const { verifier, results } = verifierWith({
      verify: (() =>
        Object.defineProperty({}, 'then', {
          get() {
            throw new Error('db down');
          },
        })) as never,
      onError: (_error, info) => infos.push(info),
    });
    const response = await verifier.fetch(
      new Request('http://127.0.0.1/verify', {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(claim),
      }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('connection')).toBeNull();
    expect(results[0]?.reason).toBe('handler_error');
    expect(infos).toEqual([
      { requestId: claim.requestId, questId: claim.questId, reason: 'handler_error' },
    ]);
  });

  it('answers 400 timeout for a handler that never settles, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const { verifier, results } = verifierWith({
      timeoutMs: 30,
      verify: (ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    expect((await send(verifier)).json.message).toBe(
      'Verification took too long. Please try again in a minute.',
    );
    expect(results[0]?.reason).toBe('timeout');
    expect(signal?.aborted).toBe(true);
  });

  it('hands a signal read only after the deadline already aborted, the same one each read', async () => {
    let resume: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const read: AbortSignal[] = [];
    let settled: () => void = () => {};
    const reported = new Promise<void>((resolve) => {
      settled = resolve;
    });
    const { verifier, results } = verifierWith({
      timeoutMs: 30,
      // The late result is reported once the handler settles, after its reads.
      onError: () => settled(),
      verify: async (ctx) => {
        await late;
        read.push(ctx.signal, ctx.signal);
        return ok('late');
      },
    });
    expect((await send(verifier)).status).toBe(400);
    expect(results[0]?.reason).toBe('timeout');
    resume();
    await reported;
    expect(read).toHaveLength(2);
    expect(read[0]?.aborted).toBe(true);
    expect(read[0]?.reason).toMatchObject({ name: 'TimeoutError' });
    expect(read[1]).toBe(read[0]);
  });

  it('reports a handler that settles after the deadline, and answers only once', async () => {
    const { verifier, results, errors } = verifierWith({
      timeoutMs: 20,
      verify: () => new Promise((resolve) => setTimeout(() => resolve(ok('late')), 60)),
    });
    const answer = await send(verifier);
    expect(answer.status).toBe(400);
    // A bound far past a busy machine's delays: it only costs time when the report never comes.
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 });
    expect(String(errors[0])).toMatch(/after the deadline/);
    expect(results).toHaveLength(1);
  });

  it('survives hooks that throw', async () => {
    const verifier = createVerifier({
      apiKey: KEY,
      verify: () => {
        throw new Error('x');
      },
      onResult: () => {
        throw new Error('hook');
      },
      onError: () => {
        throw new Error('hook');
      },
    });
    expect((await send(verifier)).status).toBe(400);
  });
});

describe('createVerifier: requires and quests', () => {
  it('answers 400 naming each missing account, without calling the handler', async () => {
    const verify = vi.fn(() => ok());
    const verifier = createVerifier({ apiKey: KEY, requires: ['wallet', 'twitter'], verify });
    const answer = await send(verifier);
    expect(answer.json.message).toBe(
      'Link your wallet and X (Twitter) account to your profile, then claim again.',
    );
    expect(verify).not.toHaveBeenCalled();
  });

  it('treats a blank string account as missing', async () => {
    const verifier = createVerifier({ apiKey: KEY, requires: ['email'], verify: () => ok() });
    expect(
      (await send(verifier, JSON.stringify({ ...claim, accounts: { email: '  ' } }))).status,
    ).toBe(400);
    expect((await send(verifier)).status).toBe(200);
  });

  it('routes by questId, applies per-quest requires, and falls back to verify', async () => {
    const verifier = createVerifier({
      apiKey: KEY,
      quests: {
        'q-1': defineQuest({
          requires: ['discord'],
          verify: ({ accounts }) => ok(`hi ${accounts.discord.handle}`),
        }),
        'q-2': defineQuest({ requires: ['wallet'], verify: () => ok() }),
      },
      verify: () => fail('default handler'),
    });
    expect((await send(verifier)).json.message).toBe('hi ada');
    expect(
      (await send(verifier, JSON.stringify({ ...claim, questId: 'q-2' }))).json.message,
    ).toMatch(/wallet/);
    expect((await send(verifier, JSON.stringify({ ...claim, questId: 'q-9' }))).json.message).toBe(
      'default handler',
    );
  });

  it('answers 400 unknown_quest for a quest not routed and no default', async () => {
    const results: ResultEvent[] = [];
    const verifier = createVerifier({
      apiKey: KEY,
      quests: { other: () => ok() },
      onResult: (r) => results.push(r),
    });
    const answer = await send(verifier);
    expect(answer).toMatchObject({
      status: 400,
      json: { message: 'This quest is not set up on the verification endpoint yet.' },
    });
    expect(results[0]?.reason).toBe('unknown_quest');
  });

  it('throws at construction for bad options, naming the option', () => {
    expect(() => createVerifier({ apiKey: KEY })).toThrow(/verify or quests/);
    expect(() => createVerifier({ apiKey: KEY, verify: () => ok(), timeoutMs: 10_000 })).toThrow(
      /timeoutMs/,
    );
    expect(() => createVerifier({ apiKey: KEY, verify: () => ok(), timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
    expect(() => createVerifier({ apiKey: KEY, verify: () => ok(), maxBodyBytes: -1 })).toThrow(
      /maxBodyBytes/,
    );
    expect(() =>
      createVerifier({ apiKey: KEY, verify: () => ok(), requires: ['phone' as never] }),
    ).toThrow(/phone/);
    expect(() => createVerifier({ apiKey: KEY, quests: { q: {} as never } })).toThrow(
      /quests\["q"\]/,
    );
  });

  it('uses custom messages, normalized', async () => {
    const verifier = createVerifier({
      apiKey: KEY,
      verify: () => ok(),
      messages: { badKey: '  Wrong\nkey\u0000 ', missingKey: '' },
    });
    expect(
      (await send(verifier, JSON.stringify(claim), { headers: { 'x-api-key': 'x' } })).json.message,
    ).toBe('Wrong key');
    const missing = await verifier.decide({ headers: {}, body: '{}' });
    expect(missing.body.message).toMatch(/did not receive the API key/);
  });
});

describe('createVerifier: regressions', () => {
  it('answers 400 unreadable_body for a locked stream instead of rejecting', async () => {
    const { verifier, results } = verifierWith();
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    stream.getReader();
    const decision = await verifier.decide({ headers: { 'x-api-key': KEY }, body: stream });
    expect(decision).toMatchObject({ status: 400, reason: 'unreadable_body' });
    expect(results[0]?.reason).toBe('unreadable_body');
  });

  it('gives each Response its own writable headers object (as @hono/node-server writes into it)', async () => {
    const { verifier } = verifierWith();
    const Original = globalThis.Response;
    class WritingResponse extends Original {
      constructor(body: BodyInit | null, init: ResponseInit & { headers: Record<string, string> }) {
        init.headers['content-length'] = String(String(body).length);
        super(body, init);
      }
    }
    vi.stubGlobal('Response', WritingResponse);
    try {
      const response = await verifier.fetch(
        new Request('http://127.0.0.1/', {
          method: 'POST',
          headers: { 'x-api-key': KEY },
          body: JSON.stringify(claim),
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
