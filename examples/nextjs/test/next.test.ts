import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runConformance } from '@questkit/conformance';
import { createConnectRedirect } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The app as it ships: `next build`, then `next start` on a loopback port, judged by the
// conformance battery (connect checks included) over real HTTP.

const APP = join(dirname(fileURLToPath(import.meta.url)), '..');
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next');
const ENV = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: '1',
  QUEST_API_KEY: 'next-task-key',
  CONNECT_SECRET: 'next-connect-secret',
  SESSION_SECRET: 'next-session-secret-0123456789abcdef',
  // Set once the port is known.
  PUBLIC_URL: '',
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

let next: ChildProcess | undefined;
let origin = '';

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [NEXT, 'build'], {
    cwd: APP,
    env: ENV,
    timeout: 300_000,
  });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The public origin the platform signs: Next.js reports its own host in request.url.
  ENV.PUBLIC_URL = origin;
  next = spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: APP,
    env: ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${origin}/`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('next start did not answer within 30 s');
}, 360_000);

afterAll(() => {
  next?.kill();
});

describe('the Next.js example, built and started', () => {
  it('passes the conformance battery, connect checks included', async () => {
    const report = await runConformance({
      url: `${origin}/api/verify`,
      apiKey: ENV.QUEST_API_KEY!,
      connect: { url: `${origin}/api/connect`, secret: ENV.CONNECT_SECRET! },
      timeoutMs: 5_000,
      burst: 4,
      samples: 4,
    });
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(
      failed.map((check) => `${check.id}: ${check.findings.map((f) => f.message).join('; ')}`),
    ).toEqual([]);
  }, 60_000);

  it('answers other methods with the contract’s 400 {message}', async () => {
    const answer = await fetch(`${origin}/api/verify`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      message: 'This verification endpoint only accepts POST requests.',
    });
  });
});

// The connect flow attacked through the session cookie: a visitor writes the cookie a victim's
// browser would hold, opening his own signed link, to have the victim's identifier signed into
// the platform's callback. Sessions are signed here with node:crypto, outside the app's code.
describe('the Next.js example’s session cookie', () => {
  const VICTIM = 'member-victim-1';
  const ATTACKER = 'member-attacker-9';
  const mac = (payload: string, secret = ENV.SESSION_SECRET!) =>
    createHmac('sha256', secret).update(payload).digest('base64url');
  const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
  const session = (member: string, expires = inAnHour(), secret?: string) =>
    `session=${member}.${expires}.${mac(`${member}.${expires}`, secret)}`;
  const open = async (cookie: string) => {
    const link = await createConnectRedirect({
      redirectUrl: `${origin}/api/connect`,
      svcUserId: 'svc-attacker',
      callback: 'https://platform.example/connect/callback?s=1',
      secret: ENV.CONNECT_SECRET!,
    });
    const answer = await fetch(link, {
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    return {
      status: answer.status,
      location: answer.headers.get('location'),
      page: await answer.text(),
    };
  };

  it('a session the app signed shows the confirmation for its member', async () => {
    const shown = await open(session(ATTACKER));
    expect(shown.status).toBe(200);
    expect(shown.page).toContain(ATTACKER);
  });

  const forgeries: [string, () => string][] = [
    ['the bare member id the example once trusted', () => `session=${VICTIM}`],
    [
      'the victim’s id under the attacker’s signature',
      () => {
        const expires = inAnHour();
        return `session=${VICTIM}.${expires}.${mac(`${ATTACKER}.${expires}`)}`;
      },
    ],
    ['a session signed with another secret', () => session(VICTIM, inAnHour(), 'guessed-secret')],
    [
      'a later expiry under the old signature',
      () => {
        const expires = inAnHour();
        return `session=${VICTIM}.${expires + 86_400}.${mac(`${VICTIM}.${expires}`)}`;
      },
    ],
    ['an expired session of the victim', () => session(VICTIM, Math.floor(Date.now() / 1000) - 1)],
    ['a signature cut short', () => session(VICTIM).slice(0, -2)],
  ];
  for (const [name, cookie] of forgeries) {
    it(`refuses ${name}: login, never a page naming the victim`, async () => {
      const answer = await open(cookie());
      expect(answer.status).toBe(302);
      expect(answer.location).toMatch(/\/login\?returnTo=/);
      expect(answer.page).not.toContain(VICTIM);
    });
  }
});
