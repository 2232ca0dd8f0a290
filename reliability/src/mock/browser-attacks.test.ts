/**
 * The mock next to a developer's browser, attacked as a hostile page would: every control route
 * of the catalogue and a public route of each family, with a foreign `Host` (DNS rebinding) and
 * with cross-site `Origin` / `Sec-Fetch-Site` headers, over real HTTP to a mock in a child
 * process. A refused request is a 403 JSON answer that leaks nothing and changes nothing; scripts
 * without `Origin` and the mock's own origin keep working.
 */
import { request as httpRequest } from 'node:http';
import { CONTROL_ROUTES, DEMO } from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, startMock } from '../harness/server-process.js';
import { n, record } from '../report/record.js';

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A raw request, so Host, Origin and Sec-Fetch-Site say what an attacker makes them say. */
function raw(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method,
        // A length, so a DELETE's body is framed (Node sends those unframed by default).
        headers:
          body === undefined
            ? headers
            : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        setHost: !('host' in headers),
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Names a DNS-rebinding page can give the mock's address. */
const HOSTILE_HOSTS = [
  'attacker.example',
  'attacker.example:4000',
  'localhost.attacker.example',
  '127.0.0.1.nip.io',
  'xn--80ak6aa92e.com',
  '0.0.0.0',
];

/** What a cross-site page's request carries. */
const CROSS_SITE: Record<string, string>[] = [
  { origin: 'https://evil.example' },
  { origin: 'http://localhost:3000' },
  { origin: 'null' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
];

const PUBLIC_PATHS = [
  '/public/communities/demo',
  `/public/communities/demo/users/${DEMO.users.admin}`,
  '/public/communities/demo/quests',
  '/public/communities/demo/webhooks',
];

const fill = (path: string) =>
  path
    .replace('{subdomain}', 'demo')
    .replace('{questId}', DEMO.quests.verifyEmail)
    .replace('{userId}', DEMO.users.admin)
    .replace('{webhookId}', DEMO.webhooks.joined)
    .replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

describe('the mock against a hostile browser page', () => {
  let mock: ChildServer;
  let origin: string;
  beforeAll(async () => {
    // A manual clock: a clock that moved would mean a cross-site advance got through.
    mock = await startMock({ manualClock: true });
    origin = `http://127.0.0.1:${mock.port}`;
  });
  afterAll(() => mock?.close());

  it('refuses a foreign Host on every control route and public route, leaking nothing', async () => {
    const violations: string[] = [];
    let requests = 0;
    const secretBefore = await raw(origin, 'GET', '/__mock/communities/demo/secret', {});
    expect(secretBefore.status).toBe(200);
    for (const host of HOSTILE_HOSTS) {
      const targets = [
        ...CONTROL_ROUTES.map((route) => ({
          method: route.method,
          path: fill(route.path),
          body: route.example,
        })),
        ...PUBLIC_PATHS.map((path) => ({ method: 'GET', path, body: undefined })),
      ];
      for (const target of targets) {
        requests += 1;
        const body = target.body === undefined ? undefined : JSON.stringify(target.body);
        const answer = await raw(
          origin,
          target.method,
          target.path,
          { host, 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
          body,
        );
        const where = `${target.method} ${target.path} Host ${host}`;
        if (answer.status !== 403) violations.push(`${where}: ${answer.status}`);
        else if (!answer.contentType.includes('application/json'))
          violations.push(`${where}: content type ${answer.contentType}`);
        else if (!JSON.parse(answer.text).message?.includes('--allowed-hosts'))
          violations.push(`${where}: the message does not name --allowed-hosts`);
        if (answer.text.includes(DEMO.connectSecret) || answer.text.includes('whsec_'))
          violations.push(`${where}: a secret in the answer`);
      }
    }
    const secretAfter = await raw(origin, 'GET', '/__mock/communities/demo/secret', {});
    if (secretAfter.text !== secretBefore.text) violations.push('the connect secret changed');
    record({
      area: 'Mock platform: hostile browser pages',
      subject: `foreign Host (${HOSTILE_HOSTS.length} names)`,
      requests,
      faults: requests,
      held: `${n(requests)} requests to ${CONTROL_ROUTES.length} control routes and ${PUBLIC_PATHS.length} public routes: each a 403 JSON naming --allowed-hosts, no secret, no change`,
      violations: violations.length,
    });
    expect(violations.slice(0, 30)).toEqual([]);
  });

  it('refuses cross-site requests on every control route, and lets scripts and its own origin through', async () => {
    const violations: string[] = [];
    let requests = 0;
    const clockBefore = (await raw(origin, 'GET', '/__mock/clock', {})).text;
    // Navigations of the connect flow are the one control area a browser must reach cross-site.
    const guarded = CONTROL_ROUTES.filter((route) => !route.path.startsWith('/__mock/connect/'));
    for (const headers of CROSS_SITE) {
      for (const route of guarded) {
        requests += 1;
        const body = JSON.stringify(route.example ?? {});
        const answer = await raw(
          origin,
          route.method,
          `${fill(route.path)}${route.query ? `?${route.query}` : ''}`,
          { ...headers, 'content-type': 'text/plain' },
          route.method === 'GET' ? undefined : body,
        );
        if (answer.status !== 403)
          violations.push(
            `${route.method} ${route.path} ${JSON.stringify(headers)}: ${answer.status}`,
          );
        if (answer.text.includes(DEMO.connectSecret) || /"token"/.test(answer.text))
          violations.push(`${route.method} ${route.path}: a secret in the answer`);
      }
    }
    if ((await raw(origin, 'GET', '/__mock/clock', {})).text !== clockBefore)
      violations.push('the clock moved');
    const token = JSON.stringify({ userId: DEMO.users.admin });
    const json = { 'content-type': 'application/json' };
    const script = await raw(origin, 'POST', '/__mock/tokens', json, token);
    const ownPage = await raw(
      origin,
      'POST',
      '/__mock/tokens',
      { ...json, origin, 'sec-fetch-site': 'same-origin' },
      token,
    );
    if (script.status !== 200) violations.push(`a script without Origin: ${script.status}`);
    if (ownPage.status !== 200) violations.push(`the mock's own origin: ${ownPage.status}`);
    record({
      area: 'Mock platform: hostile browser pages',
      subject: `cross-site Origin / Sec-Fetch-Site (${CROSS_SITE.length} variants)`,
      requests: requests + 2,
      faults: requests,
      held: `${n(requests)} cross-site requests to ${guarded.length} control routes each a 403 with no secret and no change; a script without Origin and the mock's own origin answered 200`,
      violations: violations.length,
    });
    expect(violations.slice(0, 30)).toEqual([]);
  });
});
