import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { explainRefusedDelivery } from '@questkit/core/api';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The dashboard in Debian's Chromium (playwright-core, no browser download): a delivery refused
// by a receiver that wants a signature header shows, beside its failed attempt, how deliveries
// are made (no signature header, the secret in the body, the event under `data`).

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../artifacts');
const WAIT = { timeout: 10_000 };

let mock: MockServer;
let receiver: Server;
let context: BrowserContext;
let page: Page;
let profile: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  mock = await startMockServer(
    createMockPlatform({
      clock: createManualClock('2025-06-01T12:00:00.000Z'),
      rateLimit: false,
      endpointChecks: false,
    }),
    { port: 0 },
  );
  // A receiver written for HMAC-signed webhooks: every delivery lacks the header it wants.
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end('{"error":"Missing X-Signature header"}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const api = async (method: string, path: string, body: unknown) => {
    const answer = await fetch(`${mock.url}${path}`, {
      method,
      headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status, `${method} ${path}`).toBe(200);
  };
  for (const id of Object.values(DEMO.webhooks)) {
    await api('PATCH', `/public/communities/demo/webhooks/${id}`, { active: false });
  }
  await api('POST', '/public/communities/demo/webhooks', {
    name: 'HMAC receiver',
    uri: receiverUrl,
    active: true,
    events: ['JOINED_COMMUNITY'],
  });
  await api('POST', '/__mock/communities/demo/members', { name: 'signed-hopes' });

  profile = mkdtempSync(join(tmpdir(), 'questkit-dashboard-explanation-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${mock.url}/__mock/dashboard`);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await mock?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('a refused delivery in the dashboard', { timeout: 120_000 }, () => {
  it('shows the format beside the failed attempt', async () => {
    const failed = page.locator('#delivery-rows tr', { hasText: 'failed' }).first();
    await failed.waitFor(WAIT);
    await failed.getByRole('button', { name: /^Details/ }).click();
    const attempt = page.locator('#delivery-attempts li').first();
    await attempt.waitFor(WAIT);
    const text = (await attempt.textContent()) ?? '';
    expect(text).toContain('HTTP 401');
    expect(text).toContain('answered {"error":"Missing X-Signature header"}');
    const explanation = attempt.locator('.attempt-explanation');
    expect(await explanation.textContent()).toBe(explainRefusedDelivery({ status: 401 }));
    expect(await explanation.isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-delivery-explanation.png') });
  });
});
