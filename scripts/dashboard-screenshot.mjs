// `node scripts/dashboard-screenshot.mjs [file]`: the mock platform's dashboard screenshot in its
// README (default packages/mock-platform/docs/dashboard.png), made afresh from the built mock
// (`pnpm build` first) in Debian's Chromium through playwright-core, which never downloads a
// browser. It stages one claim of each outcome (claimed, not verified, key refused, refused
// before any call, endpoint fault) on a manual clock, opens the claimed one's call, and shoots the
// journal at 1280 px.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const out = resolve(process.argv[2] ?? join(root, 'packages/mock-platform/docs/dashboard.png'));
if (process.argv.length > 3) {
  process.stderr.write('Usage: node scripts/dashboard-screenshot.mjs [file.png]\n');
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  process.stderr.write(`${CHROMIUM} is missing: install Debian's chromium (.ci/run does)\n`);
  process.exit(1);
}
const mockDist = join(root, 'packages/mock-platform/dist/index.js');
if (!existsSync(mockDist)) {
  process.stderr.write('The mock platform is not built: run `npx pnpm@10.28.2 build` first\n');
  process.exit(1);
}
const { createManualClock, createMockPlatform, DEMO, startMockServer } = await import(
  pathToFileURL(mockDist).href
);
const { chromium } = createRequire(join(root, 'packages/mock-platform/package.json'))(
  'playwright-core',
);

const listen = (server) =>
  new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${server.address().port}`)),
  );
// The shop's endpoint: its key is `shop-key`; ada is subscribed, ben is not.
const endpoint = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const keyed = request.headers['x-api-key'] === 'shop-key';
    const ada = body.includes(DEMO.users.admin);
    const message = !keyed
      ? 'Invalid API key.'
      : ada
        ? 'Thanks for subscribing!'
        : 'Subscribe first.';
    response.writeHead(keyed && ada ? 200 : 400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message }));
  });
});
const closed = createServer();
const mock = await startMockServer(
  createMockPlatform({
    clock: createManualClock('2026-06-01T12:00:00.000Z'),
    rateLimit: false,
    endpointChecks: false,
  }),
  { port: 0 },
);
let context;
let profile;
try {
  const shop = await listen(endpoint);
  const dead = await listen(closed);
  await new Promise((done) => closed.close(done));
  const api = async (method, path, body) => {
    const answer = await fetch(`${mock.url}${path}`, {
      method,
      headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return text === '' ? {} : JSON.parse(text);
  };
  const quest = (name, endpointUrl, apiKey) =>
    api('POST', '/public/communities/demo/quests', {
      categoryId: DEMO.modules.community,
      name,
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
      tasks: [{ type: 'api', settings: { endpoint: `${endpointUrl}/verify`, apiKey } }],
    });
  const claim = (questId, userId) =>
    api('POST', `/__mock/communities/demo/quests/${questId}/claims`, { userId });
  const newsletter = await quest('Newsletter', shop, 'shop-key');
  const invites = await quest('Invite a friend', shop, 'an-old-key');
  const offline = await quest('Attend the call', dead, 'shop-key');
  await claim(offline.id, DEMO.users.admin);
  await claim(invites.id, DEMO.users.admin);
  await claim(newsletter.id, DEMO.users.editor);
  const claimed = await claim(newsletter.id, DEMO.users.admin);
  await claim(newsletter.id, DEMO.users.admin);

  profile = await mkdtemp(join(tmpdir(), 'questkit-screenshot-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${mock.url}/__mock/dashboard`);
  const row = page.locator(`#claims tr[data-request-id="${claimed.requestId}"]`);
  await row.waitFor();
  await row.getByRole('button', { name: /^Details of the claim/ }).click();
  await page.locator('#claim-detail').waitFor();
  await page.locator('#journal').screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await context?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  endpoint.closeAllConnections();
  await new Promise((done) => endpoint.close(done));
  await mock.close();
}
