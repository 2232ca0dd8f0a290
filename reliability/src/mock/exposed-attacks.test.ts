/**
 * The mock exposed beyond loopback (a control token set), attacked by someone who can reach it
 * without the token or any credential, over real HTTP to a mock in a child process whose memory
 * is measured from outside: stalled unauthenticated uploads (they once held 1 MiB each), connect
 * flows started for a victim, member and subdomain probes through start, the callback and the
 * dashboard; and, on a loopback mock, a read-write key making the mock sign its own callback.
 */
import { connect as tcpConnect } from 'node:net';
import { DEMO } from '@questkit/mock-platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import { type ChildServer, startMock } from '../harness/server-process.js';
import { mb, n, record } from '../report/record.js';

const AREA = 'Mock platform: exposed beyond loopback';
const TOKEN = 'reliability-control-token-0123456789';
const MIB = 1024 * 1024;
const STALLED = FULL ? 200 : 40;

/**
 * Sends headers declaring a 1 MiB body without credentials, then all of it but the last byte,
 * and stalls. Resolves with the status the mock answered (null if none) and whether it answered
 * before the body ended, which it never will.
 */
function stalledUpload(port: number): Promise<{ status: number | null; written: number }> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    let received = '';
    let written = 0;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      resolve({ status: status ? Number(status) : null, written });
    };
    // Bounded: an upload still unanswered after 15 s counts as held.
    const timer = setTimeout(finish, 15_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (/\r\n\r\n/.test(received)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(
      `POST /public/communities/demo/quests HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${MIB}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = () => {
      while (written < MIB - 1) {
        const size = Math.min(chunk.length, MIB - 1 - written);
        written += size;
        if (!socket.write(chunk.subarray(0, size))) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

const text = async (response: Response) => `${response.status} ${await response.text()}`;

describe('the mock exposed beyond loopback', () => {
  let mock: ChildServer;
  let origin: string;
  beforeAll(async () => {
    mock = await startMock({ controlToken: TOKEN });
    origin = `http://127.0.0.1:${mock.port}`;
  });
  afterAll(() => mock?.close());

  it('holds no buffer for stalled unauthenticated uploads, and answers each at once', async () => {
    const before = await mock.stats({ gc: true });
    const answers = await Promise.all(
      Array.from({ length: STALLED }, () => stalledUpload(mock.port)),
    );
    const after = await mock.stats({ gc: true });
    const refused = answers.filter((answer) => answer.status === 401).length;
    const growth = after.maxRss - before.maxRss;
    const limit = 16 * MIB;
    const healthy = await fetch(`${origin}/public/communities/demo`, {
      headers: { 'x-api-key': DEMO.apiKeys.readOnly },
    });
    const violations = [
      ...(refused === STALLED ? [] : [`${STALLED - refused} uploads not refused with a 401`]),
      ...(growth < limit ? [] : [`peak RSS +${mb(growth)}`]),
      ...(healthy.status === 200 ? [] : [`a keyed request then got ${healthy.status}`]),
    ];
    record({
      area: AREA,
      subject: `${STALLED} stalled unauthenticated 1 MiB uploads`,
      requests: STALLED + 1,
      faults: STALLED,
      held: `each refused with a 401 before its body ended (${n(refused)} of ${n(STALLED)}), body unread, connection closed; mock peak RSS +${mb(growth)} (limit ${mb(limit)}; before the fix each upload was buffered, 40 held 40 MiB); a keyed request answered ${healthy.status}`,
      violations: violations.length,
    });
    expect(violations).toEqual([]);
  }, 60_000);

  it('starts no connect flow, and tells nothing about members or communities, without the token', async () => {
    const start = (query: string) =>
      fetch(`${origin}/__mock/connect/start?${query}`, { redirect: 'manual' }).then(text);
    const starts = new Set([
      await start(
        `subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${DEMO.users.editor}`,
      ),
      await start(
        `subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=10000000-0000-4000-8000-00000000dead`,
      ),
      await start(`subdomain=nope&questId=x&userId=${DEMO.users.editor}`),
    ]);
    const callback = (query: string) =>
      fetch(`${origin}/__mock/connect/callback?${query}`, {
        headers: { accept: 'application/json' },
      }).then(text);
    const callbacks = new Set([
      await callback('subdomain=demo'),
      await callback('subdomain=nope'),
      await callback(
        `subdomain=demo&userId=${DEMO.users.editor}&redirectUrl=x&identifier=a&nonce=00&signature=${'0'.repeat(64)}`,
      ),
    ]);
    const page = await (await fetch(`${origin}/__mock/dashboard`)).text();
    const list = await fetch(`${origin}/__mock/communities`);
    const violations = [
      ...(starts.size === 1 && [...starts][0]!.startsWith('403 ')
        ? []
        : [`start answers differ or pass: ${[...starts].join(' | ')}`]),
      ...(callbacks.size === 1 ? [] : [`callback answers differ: ${[...callbacks].join(' | ')}`]),
      ...(/<option value="demo"/.test(page) ? ['the dashboard page names a community'] : []),
      ...(list.status === 403 ? [] : [`GET /__mock/communities answered ${list.status}`]),
    ];
    record({
      area: AREA,
      subject: 'connect start, callback and dashboard without the control token',
      requests: 8,
      faults: 8,
      held: `3 starts (a member, an unknown member, an unknown community) one identical 403 (before: 302 / 404 / 404, a victim's flow started); 3 callbacks without a live nonce one identical 400 (before: unknown_community vs bad_signature); the dashboard page names no community, its list needs the token (before: every subdomain in the page)`,
      violations: violations.length,
    });
    expect(violations).toEqual([]);
  });
});

describe('a read-write key against the mock’s own callback', () => {
  let mock: ChildServer;
  let origin: string;
  beforeAll(async () => {
    mock = await startMock();
    origin = `http://127.0.0.1:${mock.port}`;
  });
  afterAll(() => mock?.close());

  it('cannot have the mock sign a member link', async () => {
    const victim = DEMO.users.editor;
    const first = await fetch(
      `${origin}/__mock/connect/start?subdomain=demo&questId=${DEMO.quests.partnerConnect}&userId=${victim}`,
      { redirect: 'manual' },
    );
    const callback = new URL(new URL(first.headers.get('location')!).searchParams.get('callback')!);
    const forged = `${origin}/__mock/connect/callback?${new URLSearchParams({
      subdomain: 'demo',
      userId: victim,
      redirectUrl: 'https://attacker.example/connect',
      identifier: 'attacker-account',
      nonce: callback.searchParams.get('nonce')!,
    })}`;
    const created = await fetch(`${origin}/public/communities/demo/quests`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO.apiKeys.readWrite, 'content-type': 'application/json' },
      body: JSON.stringify({
        categoryId: DEMO.modules.onboarding,
        name: 'Self-signing',
        published: true,
        recurrence: 'daily',
        conditionOperator: 'AND',
        rewards: [{ type: 'xp', value: 1 }],
        tasks: [
          {
            type: 'api',
            settings: {
              endpoint: 'https://attacker.example/verify',
              identifications: ['svc-connect'],
              redirectUrl: forged,
            },
          },
        ],
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const signed = await fetch(
      `${origin}/__mock/connect/start?subdomain=demo&questId=${id}&userId=${victim}`,
      { redirect: 'manual' },
    );
    const location = signed.headers.get('location');
    const followed = location
      ? await fetch(location, { headers: { accept: 'application/json' } })
      : undefined;
    const connections = (await (
      await fetch(`${origin}/__mock/communities/demo/users/${victim}/connections`)
    ).json()) as { identifier: string }[];
    const linked = connections.filter((c) => c.identifier === 'attacker-account').length;
    const violations = [
      ...(signed.status === 409 ? [] : [`start answered ${signed.status}`]),
      ...(followed && followed.status === 200 ? ['the self-signed callback was accepted'] : []),
      ...(linked === 0 ? [] : ['the victim was linked to the attacker']),
    ];
    record({
      area: AREA,
      subject: 'task redirectUrl at the mock’s own callback (read-write key, no secret)',
      requests: 5,
      faults: 1,
      held: `start refused the redirectUrl with a 409 and signed nothing; the victim has no association to the attacker (before: the mock signed its own callback and stored victim -> attacker-account)`,
      violations: violations.length,
    });
    expect(violations).toEqual([]);
  });
});
