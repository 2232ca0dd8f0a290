import {
  createManualClock,
  createMockPlatform,
  DEMO,
  startMockServer,
} from '@questkit/mock-platform';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, PlatformError } from './index.js';

// The mock's errors on demand, as its README shows them to a client author: a `fetch` that adds
// `Prefer: code=…` makes every call answer that error, so the client's error paths run for real.

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function clientPreferring(code: number) {
  const mock = await startMockServer(createMockPlatform({ clock: createManualClock() }), {
    port: 0,
  });
  closing.push(() => mock.close());
  return createClient({
    baseUrl: mock.url,
    subdomain: 'demo',
    apiKey: DEMO.apiKeys.readWrite,
    retry: false,
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('prefer', `code=${code}`);
      return fetch(url, { ...init, headers });
    },
  });
}

describe('a client against the mock’s errors on demand', () => {
  it('gets a retryable PlatformError for a 429, with the mock’s message', async () => {
    const platform = await clientPreferring(429);
    const error = await platform.getCommunity().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 429, retryable: true, operationId: 'getCommunity' });
    expect((error as PlatformError).body).toEqual({
      message:
        'Too many requests for this credential; retry after 1 s (answered on demand: Prefer: code=429)',
    });
  });

  it('gets a PlatformError that is not retryable for a 409 of a write', async () => {
    const platform = await clientPreferring(409);
    const error = await platform
      .createWebhook({ body: { name: 'x', uri: 'http://127.0.0.1:9/hooks', active: true } })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 409, retryable: false, operationId: 'createWebhook' });
  });

  it('gets the 400 that lists the documented codes for one getUser does not document', async () => {
    const platform = await clientPreferring(500);
    const error = await platform
      .getUser({ userId: DEMO.users.admin })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400 });
    expect((error as PlatformError).body).toMatchObject({
      message: expect.stringContaining('use code=400, code=401, code=403, code=404, code=429'),
    });
  });
});
