import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';
import { MASKED_SECRET } from '../views/webhooks.js';

// The mock next to a browser, attacked over real HTTP on loopback: raw requests so that Host,
// Origin and Sec-Fetch-Site say what an attacker's page would make them say.

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof createMockPlatform>[0] = {}) {
  server = await startMockServer(
    createMockPlatform({ endpointChecks: false, rateLimit: false, ...options }),
    { port: 0 },
  );
  return server;
}

function raw(
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server!.url}${path}`,
      { method, headers, setHost: !('host' in headers) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('DNS rebinding: the Host allow-list', () => {
  it('refuses a foreign Host on control and public routes alike, naming the flag', async () => {
    await start();
    const secret = await raw('/__mock/communities/demo/secret', { host: 'attacker.example' });
    expect(secret.status).toBe(403);
    expect(secret.text).not.toContain(DEMO.connectSecret);
    expect(JSON.parse(secret.text).message).toContain('--allowed-hosts attacker.example');
    const community = await raw('/public/communities/demo', {
      host: 'attacker.example:4000',
      'x-api-key': DEMO.apiKeys.readOnly,
    });
    expect(community.status).toBe(403);
  });

  it('answers loopback names, the bound address and allowed hosts', async () => {
    const { port } = await start({ allowedHosts: ['mock.test'] });
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      'app.localhost',
      'mock.test',
    ]) {
      expect((await raw('/__mock/clock', { host })).status, host).toBe(200);
    }
  });
});

describe('cross-site browser requests', () => {
  it('refuse control and token routes to another origin, or to a request a browser marks cross-site', async () => {
    await start();
    const token = JSON.stringify({ userId: DEMO.users.admin });
    const cases: Record<string, string>[] = [
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      { origin: 'http://localhost:3000', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' },
      { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
      { origin: 'null' },
    ];
    for (const headers of cases) {
      const answer = await raw('/__mock/tokens', headers, 'POST', token);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.text).not.toMatch(/"token"/);
    }
    const put = await raw(
      '/__mock/communities/demo/secret',
      { origin: 'https://evil.example', 'content-type': 'application/json' },
      'PUT',
      '{"secret":"attacker-secret"}',
    );
    expect(put.status).toBe(403);
    expect(server!.platform.store.communities.getBySubdomain('demo')?.connectSecret).toBe(
      DEMO.connectSecret,
    );
  });

  it('let scripts (no Origin) and the mock’s own pages (same origin) through', async () => {
    const { url } = await start();
    const body = JSON.stringify({ userId: DEMO.users.admin });
    const json = { 'content-type': 'application/json' };
    expect((await raw('/__mock/tokens', json, 'POST', body)).status).toBe(200);
    expect(
      (
        await raw(
          '/__mock/tokens',
          { ...json, origin: url, 'sec-fetch-site': 'same-origin' },
          'POST',
          body,
        )
      ).status,
    ).toBe(200);
  });

  it('keep the connect flow’s browser navigations open', async () => {
    await start();
    const start_ = await raw(
      `/__mock/connect/start?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${DEMO.users.editor}`,
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(start_.status).toBe(302);
  });
});

describe('a control token when bound beyond loopback', () => {
  it('is required on control routes, compared in constant time', async () => {
    await start({ controlToken: 'ctl-token-123456' });
    expect((await raw('/__mock/clock', {})).status).toBe(403);
    expect((await raw('/__mock/clock', { 'x-questkit-control-token': 'wrong' })).status).toBe(403);
    expect(
      (await raw('/__mock/clock', { 'x-questkit-control-token': 'ctl-token-123456' })).status,
    ).toBe(200);
    expect(
      (await raw('/public/communities/demo', { 'x-api-key': DEMO.apiKeys.readOnly })).status,
    ).toBe(200);
  });
});

describe('the dashboard', () => {
  it('serves its page without the control token, but none of the data behind it', async () => {
    await start({ controlToken: 'ctl-token-123456' });
    const page = await raw('/__mock/dashboard', {});
    expect(page.status).toBe(200);
    expect(page.text).toContain('Control token');
    expect(page.text).not.toContain('ctl-token-123456');
    expect((await raw('/__mock/dashboard/app.js', {})).status).toBe(200);
    for (const path of ['/__mock/calls', '/__mock/events', '/__mock/webhooks/deliveries']) {
      expect((await raw(path, {})).status, path).toBe(403);
    }
  });

  it('is refused to another site and to a foreign Host, and cannot be framed', async () => {
    await start();
    expect((await raw('/__mock/dashboard', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await raw('/__mock/dashboard', { host: 'attacker.example' })).status).toBe(403);
    const own = await new Promise<{ headers: Record<string, unknown> }>((resolve, reject) => {
      httpRequest(`${server!.url}/__mock/dashboard`, (res) => {
        res.resume();
        resolve({ headers: res.headers });
      })
        .on('error', reject)
        .end();
    });
    expect(own.headers['x-frame-options']).toBe('DENY');
    expect(String(own.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('read-only keys', () => {
  it('see webhook secrets and task keys masked; read-write keys see them', async () => {
    await start();
    const list = async (path: string, key: string) =>
      JSON.parse((await raw(path, { 'x-api-key': key })).text);
    const readOnly = await list(
      '/public/communities/demo/webhooks?limit=100',
      DEMO.apiKeys.readOnly,
    );
    expect(readOnly.items.length).toBeGreaterThan(0);
    expect(readOnly.items.every((w: { secret: string }) => w.secret === MASKED_SECRET)).toBe(true);
    const readWrite = await list(
      '/public/communities/demo/webhooks?limit=100',
      DEMO.apiKeys.readWrite,
    );
    expect(readWrite.items.every((w: { secret: string }) => w.secret.startsWith('whsec_'))).toBe(
      true,
    );
    const quests = await list('/public/communities/demo/quests?limit=100', DEMO.apiKeys.readOnly);
    const keys = quests.flatMap((q: { tasks: { settings: { apiKey?: string } }[] }) =>
      q.tasks.map((t) => t.settings.apiKey),
    );
    expect(keys.filter((key: string | undefined) => key !== undefined).length).toBeGreaterThan(0);
    expect(
      keys.every((key: string | undefined) => key === undefined || key === MASKED_SECRET),
    ).toBe(true);
  });
});

describe('the docs page, offline', () => {
  it('loads its script and stylesheet from the mock itself', async () => {
    await start();
    const page = await raw('/docs', {});
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/src="https?:|href="https?:/);
    const assets = [...page.text.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(assets).toEqual(['/docs/assets/docs.css']);
    for (const asset of assets) {
      const answer = await raw(asset, {});
      expect(answer.status, asset).toBe(200);
      expect(answer.text.length).toBeGreaterThan(500);
    }
    expect((await raw('/docs/assets/../package.json', {})).status).toBe(404);
  });

  it('refuses to be framed, in old browsers as well as new (clickjacking)', async () => {
    await start();
    const page = await fetch(`${server!.url}/docs`);
    await page.body?.cancel();
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
