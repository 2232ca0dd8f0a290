import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnectFlow } from '@questkit/core';
import { requestFromNode, writeNodeAnswer } from '@questkit/core/adapter';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { DEMO } from '../seed/demo-ids.js';
import { type MockServer, startMockServer } from '../server.js';

// The dashboard of a mock exposed with a control token, in Debian's Chromium: the page names no
// community until the token is given, and the connect flow still runs end to end in the browser
// (the start needs the token; the community's redirect back to the callback needs none).

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'ctl-token-dashboard-0123456789';
const WAIT = { timeout: 10_000 };

let mock: MockServer;
let community: Server;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  }
  mock = await startMockServer(
    createMockPlatform({ rateLimit: false, endpointChecks: false, controlToken: TOKEN }),
    { port: 0 },
  );
  const flow = createConnectFlow<IncomingMessage>({
    confirm: false,
    secret: DEMO.connectSecret,
    getIdentifier: () => 'dashboard-member-7',
  });
  community = createServer((req, res) => {
    const url = `http://127.0.0.1:${(community.address() as AddressInfo).port}${req.url}`;
    void flow
      .handle({ ...requestFromNode(req), url }, req)
      .then((answer) => writeNodeAnswer(res, answer));
  });
  await new Promise<void>((resolve) => community.listen(0, '127.0.0.1', resolve));
  const store = mock.platform.store;
  const quest = store.quests.get(DEMO.quests.partnerConnect)!;
  const redirectUrl = `http://127.0.0.1:${(community.address() as AddressInfo).port}/connect`;
  store.quests.put({
    ...quest,
    tasks: quest.tasks.map((task) =>
      task.settings.redirectUrl ? { ...task, settings: { ...task.settings, redirectUrl } } : task,
    ),
  });
  profile = mkdtempSync(join(tmpdir(), 'questkit-dashboard-token-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  context.setDefaultTimeout(10_000);
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  community?.closeAllConnections();
  await new Promise((resolve) => community?.close(resolve));
  await mock?.close();
});

describe('the dashboard of a mock with a control token, in Chromium', { timeout: 120_000 }, () => {
  it('names no community before the token, then runs the connect flow of a member to the end', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${mock.url}/__mock/dashboard`);
    expect(await page.locator('#community option').count()).toBe(0);
    await page.locator('#token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use this token' }).click();
    await expect.poll(() => page.locator('#community').inputValue(), WAIT).toBe('demo');
    await page.getByLabel(/Find a member/).fill('ada.lovelace');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Select ada' }).click();
    const link = page.locator('a.connect-link').first();
    await link.waitFor(WAIT);
    await link.click();
    await page.getByRole('heading', { name: 'Account connected' }).waitFor(WAIT);
    expect(new URL(page.url()).pathname).toBe('/__mock/connect/callback');
    expect(mock.platform.store.connections.listByUser(DEMO.users.admin)).toContainEqual(
      expect.objectContaining({ identifier: 'dashboard-member-7' }),
    );
  });
});
