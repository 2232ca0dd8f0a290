import { API_OPERATIONS, ErrorBodySchema } from '@questkit/core/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform, type MockPlatformOptions } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// Errors on demand (`Prefer: code=…`) over real loopback HTTP: every documented error of a few
// operations, the refusals of an undocumented or malformed code, and the attacks: Prefer must
// not pass authentication, authorization, the rate limit or validation, nor change any state.

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: MockPlatformOptions = {}) {
  server = await startMockServer(createMockPlatform(options), { port: 0 });
  return server;
}

interface Sent {
  prefer?: string;
  key?: string | null;
  body?: unknown;
}

async function send(method: string, path: string, { prefer, key, body }: Sent = {}) {
  const headers: Record<string, string> = {};
  const apiKey = key === undefined ? DEMO.apiKeys.readWrite : key;
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  if (prefer !== undefined) headers.prefer = prefer;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

const DEMO_PATH = '/public/communities/demo';
const WEBHOOK = { name: 'on demand', uri: 'http://127.0.0.1:9/hooks', active: true };

/** A valid request of each operation tried: errors on demand come after validation. */
const VALID = {
  getCommunity: { method: 'GET', path: DEMO_PATH },
  getUser: { method: 'GET', path: `${DEMO_PATH}/users/${DEMO.users.admin}` },
  createWebhook: { method: 'POST', path: `${DEMO_PATH}/webhooks`, body: WEBHOOK },
  deleteWebhook: {
    method: 'DELETE',
    path: `${DEMO_PATH}/webhooks/${Object.values(DEMO.webhooks)[0]}`,
  },
} as const;

describe('Prefer: code=<a documented error>', () => {
  for (const [operationId, request] of Object.entries(VALID)) {
    const documented = API_OPERATIONS[operationId as keyof typeof VALID].errors;
    it(`${operationId}: answers each of ${documented.join(', ')} in the mock's error shape`, async () => {
      await start();
      for (const status of documented) {
        const answer = await send(request.method, request.path, {
          prefer: `code=${status}`,
          body: 'body' in request ? request.body : undefined,
        });
        expect(answer.status, answer.text).toBe(status);
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(answer.headers.get('preference-applied')).toBe(`code=${status}`);
        const body = ErrorBodySchema.strict().parse(answer.json());
        expect(body.message).toContain(`(answered on demand: Prefer: code=${status})`);
        expect(answer.headers.get('retry-after')).toBe(status === 429 ? '1' : null);
      }
    });
  }

  it('reads code among other preferences, and the first of two codes', async () => {
    await start();
    const mixed = await send('GET', DEMO_PATH, { prefer: 'return=minimal, code=404; x=1' });
    expect(mixed.status).toBe(404);
    const twice = await send('GET', DEMO_PATH, { prefer: 'code=409, code=500' });
    expect(twice.status).toBe(409);
  });
});

describe('a code the operation does not document, or a malformed one', () => {
  it('is refused with a 400 that lists the documented codes', async () => {
    await start();
    // getUser documents 400, 401, 403, 404 and 429: not 409, nor 500.
    for (const prefer of ['code=409', 'code=500', 'code=418', 'code=200']) {
      const answer = await send('GET', VALID.getUser.path, { prefer });
      expect(answer.status, prefer).toBe(400);
      expect(answer.headers.get('preference-applied')).toBeNull();
      const body = ErrorBodySchema.parse(answer.json());
      expect(body.message).toBe(
        `Invalid header prefer: ${prefer} is not an error status this operation documents; use code=400, code=401, code=403, code=404, code=429, or send no Prefer header for the usual answer`,
      );
      expect(body.issues).toEqual([{ in: 'header', path: 'prefer', message: expect.any(String) }]);
    }
  });

  it('is refused when malformed: not three digits, or no value', async () => {
    await start();
    for (const [prefer, asked] of [
      ['code=abc', 'code=abc'],
      ['code=4290', 'code=4290'],
      ['code=42', 'code=42'],
      ['code= 404x', 'code=404x'],
      ['code', 'code without a value'],
    ]) {
      const answer = await send('GET', DEMO_PATH, { prefer });
      expect(answer.status, prefer).toBe(400);
      expect(answer.json().message).toContain(`${asked} is not an error status`);
    }
  });
});

describe('without a code preference, nothing changes', () => {
  it('answers the same without Prefer and with preferences other than code', async () => {
    await start();
    const plain = await send('GET', DEMO_PATH);
    expect(plain.status).toBe(200);
    for (const prefer of ['return=minimal', 'dynamic=true', 'respond-async, wait=5']) {
      const answer = await send('GET', DEMO_PATH, { prefer });
      expect(answer.status, prefer).toBe(200);
      expect(answer.text).toBe(plain.text);
      expect(answer.headers.get('preference-applied')).toBeNull();
    }
  });

  it('leaves the control routes alone', async () => {
    await start();
    const answer = await send('GET', '/__mock/clock', { prefer: 'code=500' });
    expect(answer.status).toBe(200);
  });
});

describe('Prefer as an attacker would send it', () => {
  it('does not pass authentication: no key or a wrong key gets the usual 401', async () => {
    await start();
    for (const key of [null, 'qk_not_a_key']) {
      const answer = await send('GET', DEMO_PATH, { key, prefer: 'code=404' });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('preference-applied')).toBeNull();
      expect(answer.json().message).not.toContain('on demand');
    }
  });

  it('does not pass authorization: a read-only key asking for 409 on a write gets the usual 403', async () => {
    await start();
    const answer = await send('POST', VALID.createWebhook.path, {
      key: DEMO.apiKeys.readOnly,
      prefer: 'code=409',
      body: WEBHOOK,
    });
    expect(answer.status).toBe(403);
    expect(answer.json().message).toBe(
      'This API key is read-only; this route needs a read-write key',
    );
  });

  it('does not pass validation: an invalid body is a 400 of the body, not the error asked for', async () => {
    await start();
    const answer = await send('POST', VALID.createWebhook.path, {
      prefer: 'code=409',
      body: { name: '' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json().issues?.[0]?.in).toBe('body');
  });

  it('counts against the rate limit, and cannot ask its way past it', async () => {
    // The bucket refills by this clock: standing still, only the burst goes through.
    const clock = createManualClock('2025-06-01T12:00:00.000Z');
    await start({ rateLimit: { perSecond: 1, burst: 3 }, rateLimitClock: clock });
    for (let n = 0; n < 3; n++) {
      expect((await send('GET', DEMO_PATH, { prefer: 'code=404' })).status).toBe(404);
    }
    const limited = await send('GET', DEMO_PATH, { prefer: 'code=404' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('preference-applied')).toBeNull();
    expect((await send('GET', DEMO_PATH)).status).toBe(429);
  });

  it('changes no state: a create, a delete and a quest answered on demand leave everything as it was', async () => {
    const { platform } = await start();
    const before = await send('GET', `${DEMO_PATH}/webhooks?limit=100`);
    const quests = platform.store.quests.listByCommunity(DEMO.communityId).length;
    const deliveries = [...platform.store.deliveries.list()].length;
    expect(
      (await send('POST', VALID.createWebhook.path, { prefer: 'code=500', body: WEBHOOK })).status,
    ).toBe(500);
    expect((await send('DELETE', VALID.deleteWebhook.path, { prefer: 'code=409' })).status).toBe(
      409,
    );
    const quest = {
      categoryId: DEMO.modules.onboarding,
      name: 'on demand',
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
    };
    expect(
      (await send('POST', `${DEMO_PATH}/quests`, { prefer: 'code=429', body: quest })).status,
    ).toBe(429);
    expect((await send('GET', `${DEMO_PATH}/webhooks?limit=100`)).text).toBe(before.text);
    expect(platform.store.quests.listByCommunity(DEMO.communityId)).toHaveLength(quests);
    expect([...platform.store.deliveries.list()]).toHaveLength(deliveries);
    // The journal records each request with the status it was answered.
    expect(platform.requests().map((r) => r.status)).toEqual([200, 500, 409, 429, 200]);
  });
});
