import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server.js';

// Logout CSRF as an attacker tries it, in Debian's Chromium (playwright-core, no download): a
// member logged in to the app visits a page on another port of the same host (same-site, so the
// Lax session cookie goes along), whose form posts to /logout by itself.

const CHROMIUM = '/usr/bin/chromium';

let app: RunningServer;
let attacker: Server;
let attackerUrl: string;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)`);
  }
  app = await startServer({ apiKey: 'browser-task-key', connectSecret: 'browser-secret', port: 0 });
  attacker = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Free xp</title>
<form id="f" method="post" action="${app.url}/logout"><input type="hidden" name="csrf" value="guess"></form>
<script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
  profile = mkdtempSync(join(tmpdir(), 'questkit-connect-logout-'));
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
  await new Promise<void>((resolve) => {
    if (!attacker) return resolve();
    attacker.closeAllConnections();
    attacker.close(() => resolve());
  });
  await app?.close();
});

describe('logout in Chromium', () => {
  it("refuses another site's self-submitting form, and logs out from the app's own button", async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${app.url}/login`);
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill('ada-demo-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Logged in as').waitFor();

    // The attack: the form posts itself to /logout; Chromium sends the cookie and its Origin.
    const refused = page.waitForResponse((response) => response.url() === `${app.url}/logout`);
    await page.goto(attackerUrl);
    expect((await refused).status()).toBe(403);
    await page.goto(`${app.url}/`);
    await expect(page.getByText('Logged in as').textContent()).resolves.toContain('Ada L.');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('You are not logged in').waitFor();
  }, 60_000);
});
