/**
 * Requests built to make a secret come back: keys in every place and of every near-miss shape,
 * secrets inside bodies a parser chokes on, signed and tampered connect links, handlers that
 * fail. Answers, the server's log output and every `onError` message are searched for the API
 * key, the connect secret, the signatures sent and the wrong keys sent. Start-up errors of every
 * factory are searched too.
 */
import { inspect } from 'node:util';
import {
  buildConnectCallback,
  createConnectFlow,
  createConnectRedirect,
  createConnectState,
  createVerifier,
  ok,
  readConnectRedirect,
  signUrl,
  verifySignedUrl,
} from '@questkit/core';
import { verificationErrors } from '@questkit/express';
import {
  connectEndpoint as fastifyConnect,
  verificationEndpoint as fastifyVerify,
} from '@questkit/fastify';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { claimJson } from '../harness/claims.js';
import { sign } from '../harness/connect-sign.js';
import { exchange, type RequestSpec, serializeRequest } from '../harness/raw-http.js';
import { API_KEY, CONNECT_SECRET, LeakScanner, WRONG_KEY_PREFIX } from '../harness/secrets.js';
import { startServer } from '../harness/server-process.js';
import { record } from '../report/record.js';
import {
  ALLOWED_CALLBACK_ORIGIN,
  CONNECT_ORIGIN,
  FAULT_QUESTS,
  ROUTES,
} from '../servers/protocol.js';

const text = (value: string) => new TextEncoder().encode(value);

function post(
  path: string,
  headers: [string, string][],
  body: string,
  framing: RequestSpec['framing'] = 'length',
): RequestSpec {
  return {
    method: 'POST',
    path,
    headers: [['host', '127.0.0.1'], ['connection', 'close'], ...headers],
    body: text(body),
    framing,
  };
}

/** Every provocation for one adapter's verification routes. */
function verificationProvocations(routes: string[]): { name: string; spec: RequestSpec }[] {
  const wrong = `${WRONG_KEY_PREFIX}0123456789abcdef`;
  const near = `${API_KEY.slice(0, -1)}${API_KEY.endsWith('0') ? '1' : '0'}`;
  const claim = claimJson('quest-1', 'secrets');
  const json: [string, string] = ['content-type', 'application/json'];
  const items: { name: string; spec: RequestSpec }[] = [];
  for (const route of routes) {
    items.push(
      { name: 'wrong key', spec: post(route, [['x-api-key', wrong], json], claim) },
      { name: 'near-miss key', spec: post(route, [['x-api-key', near], json], claim) },
      {
        name: 'key twice',
        spec: post(route, [['x-api-key', API_KEY], ['x-api-key', wrong], json], claim),
      },
      {
        name: 'key in another header',
        spec: post(
          route,
          [['x-api-key', wrong], ['authorization', `Bearer ${API_KEY}`], json],
          claim,
        ),
      },
      {
        name: 'key in the query',
        spec: post(`${route}?key=${API_KEY}&secret=${CONNECT_SECRET}`, [json], claim),
      },
      {
        name: 'key in a GET',
        spec: {
          ...post(`${route}?apiKey=${API_KEY}`, [['x-api-key', API_KEY]], ''),
          method: 'GET',
        },
      },
      // Secrets inside bodies that fail: JSON parsers quote the text they choke on.
      {
        name: 'secret in broken JSON',
        spec: post(
          route,
          [['x-api-key', API_KEY], json],
          `{"userId":"${API_KEY}", ${CONNECT_SECRET}`,
        ),
      },
      {
        name: 'secret as a bare token',
        spec: post(route, [['x-api-key', API_KEY], json], `${API_KEY}`),
      },
      {
        name: 'secret in invalid UTF-8',
        spec: post(route, [['x-api-key', API_KEY], json], `{"userId":"${API_KEY}\udc00"}`),
      },
      {
        name: 'secrets as wrongly typed fields',
        spec: post(
          route,
          [['x-api-key', API_KEY], json],
          JSON.stringify({
            userId: { key: API_KEY },
            communityId: [CONNECT_SECRET],
            subdomain: 'demo',
            questId: 'quest-1',
            requestId: 'r',
          }),
        ),
      },
      {
        name: 'secrets as invalid accounts',
        spec: post(
          route,
          [['x-api-key', API_KEY], json],
          JSON.stringify({
            ...JSON.parse(claim),
            accounts: { email: API_KEY, discord: CONNECT_SECRET, wallet: { k: API_KEY } },
          }),
        ),
      },
      {
        name: 'secret in an oversized body',
        spec: post(route, [['x-api-key', API_KEY], json], `{"userId":"${API_KEY.repeat(3000)}"}`),
      },
      {
        name: 'secret in a too-large declared body',
        spec: post(route, [['x-api-key', wrong], json], `{"x":"${CONNECT_SECRET}"}`),
      },
      {
        name: 'secret in a chunked body',
        spec: post(
          route,
          [
            ['x-api-key', API_KEY],
            ['content-type', 'text/plain'],
          ],
          `${CONNECT_SECRET}{`,
          'chunked',
        ),
      },
      {
        name: 'secret with a bad content-encoding',
        spec: post(
          route,
          [['x-api-key', API_KEY], json, ['content-encoding', 'gzip']],
          `{"userId":"${API_KEY}"}`,
        ),
      },
      {
        name: 'secret with a bad charset',
        spec: post(
          route,
          [
            ['x-api-key', API_KEY],
            ['content-type', 'application/json; charset=koi9'],
            ['x-note', API_KEY],
          ],
          claim,
        ),
      },
    );
  }
  // Handlers that fail or hang on the faults route: their errors reach onError and the log.
  for (const quest of FAULT_QUESTS) {
    items.push({
      name: `handler ${quest}`,
      spec: post(
        ROUTES.faults,
        [['x-api-key', API_KEY], json],
        claimJson(quest, `secrets-${quest}`),
      ),
    });
  }
  return items;
}

/** Connect links, valid and bent, each carrying a signature the scanner looks for. */
function connectProvocations(
  scanner: LeakScanner,
): { name: string; target: string; accept: string }[] {
  const callback = `${ALLOWED_CALLBACK_ORIGIN}/connect/callback?session=s-1`;
  const items: { name: string; target: string; accept: string }[] = [];
  for (const route of [ROUTES.connect, ROUTES.connectAllow]) {
    const params = new URLSearchParams({ svcUserId: 'u-1', callback });
    const valid = sign(`${CONNECT_ORIGIN}${route}?${params}`, CONNECT_SECRET);
    const evil = sign(
      `${CONNECT_ORIGIN}${route}?${new URLSearchParams({ svcUserId: 'u-1', callback: 'javascript:alert(1)' })}`,
      CONNECT_SECRET,
    );
    const foreign = sign(
      `${CONNECT_ORIGIN}${route}?${new URLSearchParams({ svcUserId: 'u-1', callback: 'https://evil.example/cb' })}`,
      CONNECT_SECRET,
    );
    const guessed = sign(`${CONNECT_ORIGIN}${route}?${params}`, `${CONNECT_SECRET}x`);
    for (const signed of [valid, evil, foreign, guessed]) scanner.addSignature(signed.signature);
    const path = (url: string) => url.slice(CONNECT_ORIGIN.length);
    for (const accept of ['application/json', 'text/html']) {
      items.push(
        { name: 'valid link', target: path(valid.url), accept },
        { name: 'javascript: callback, signed', target: path(evil.url), accept },
        { name: 'foreign callback, signed', target: path(foreign.url), accept },
        { name: 'guessed secret', target: path(guessed.url), accept },
        {
          name: 'signature twice',
          target: `${path(valid.url)}&signature=${valid.signature}`,
          accept,
        },
        { name: 'tampered svcUserId', target: path(valid.url).replace('u-1', 'u-2'), accept },
        {
          name: 'secret as a parameter',
          target: `${path(valid.url)}&secret=${CONNECT_SECRET}`,
          accept,
        },
      );
    }
  }
  return items;
}

describe.each(SUITE_ADAPTERS)('secrets around the %s endpoints', (adapter) => {
  it('never appear in an answer, a log line or an onError message', async () => {
    const server = await startServer(adapter, { timeoutMs: 300, maxBodyBytes: 4_096 });
    const scanner = new LeakScanner();
    const routes = adapter.startsWith('express')
      ? [ROUTES.verify, ROUTES.verifyParsed, ROUTES.faults]
      : [ROUTES.verify, ROUTES.faults];
    const rounds = FULL ? 5 : 1;
    let sent = 0;
    const failures: string[] = [];
    try {
      for (let round = 0; round < rounds; round++) {
        for (const item of verificationProvocations(routes)) {
          sent++;
          try {
            const response = await exchange(server.port, serializeRequest(item.spec), {
              timeoutMs: 5_000,
            });
            scanner.scan(`answer to ${item.name}`, response.raw.toString('latin1'));
          } catch (error) {
            failures.push(`${item.name}: ${(error as Error).message}`);
          }
        }
        for (const item of connectProvocations(scanner)) {
          sent++;
          const request = `GET ${item.target} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: ${item.accept}\r\nconnection: close\r\n\r\n`;
          const response = await exchange(server.port, Buffer.from(request, 'latin1'), {
            timeoutMs: 5_000,
          });
          // A valid link's redirect carries the callback's own new signature, never one sent.
          scanner.scan(`answer to ${item.name}`, response.raw.toString('latin1'));
        }
      }
      // Late handlers report after the deadline: wait for their onError calls before searching.
      await server.waitForOnError((event) => event.requestId === 'secrets-rejects-late', 5_000);
      const stats = await server.stats();
      const output = server.output();
      scanner.scan('server output', output);
      for (const event of server.onErrors) scanner.scan('onError message', event.text);
      const violations = [
        ...failures,
        ...scanner.leaks.map((leak) => `${leak.secret} in ${leak.where}: ${leak.excerpt}`),
      ];
      if (stats.unhandledRejections > 0) violations.push('unhandled rejections');
      record({
        area: 'Verification endpoints: secrets',
        subject: ADAPTER_LABELS[adapter],
        requests: sent,
        faults: sent,
        held:
          `searched ${scanner.scannedTexts} answers, ${Math.round(output.length / 1024)} KB of log output and ` +
          `${server.onErrors.length} onError messages for the API key, the connect secret, ${scanner.secretsSought - 3} ` +
          'signatures sent and the wrong keys sent: none found',
        violations: violations.length + Math.max(0, scanner.leakCount - scanner.leaks.length),
      });
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('secrets in start-up errors', () => {
  it('no factory names a secret in the error it throws', async () => {
    const scanner = new LeakScanner();
    const verify = () => ok();
    const attempts: [string, () => unknown][] = [
      ['apiKey list with an empty key', () => createVerifier({ apiKey: [API_KEY, ''], verify })],
      [
        'apiKey list with a number',
        () => createVerifier({ apiKey: [API_KEY, 42 as unknown as string], verify }),
      ],
      ['no handler', () => createVerifier({ apiKey: API_KEY })],
      ['bad timeout', () => createVerifier({ apiKey: API_KEY, verify, timeoutMs: 10_000 })],
      [
        'bad requires',
        () => createVerifier({ apiKey: API_KEY, verify, requires: ['e-mail' as 'email'] }),
      ],
      [
        'bad quest route',
        () =>
          createVerifier({ apiKey: API_KEY, quests: { 'quest-1': 42 as unknown as () => never } }),
      ],
      [
        'connect secret list with an empty one',
        () => createConnectFlow({ secret: [CONNECT_SECRET, ''], getIdentifier: () => 'm' }),
      ],
      [
        'publicUrl with a path',
        () =>
          createConnectFlow({
            secret: CONNECT_SECRET,
            getIdentifier: () => 'm',
            publicUrl: `https://x.example/${CONNECT_SECRET}`,
          }),
      ],
      [
        'allow-list entry not an origin',
        () =>
          createConnectFlow({
            secret: CONNECT_SECRET,
            getIdentifier: () => 'm',
            allowedCallbackOrigins: [CONNECT_SECRET],
          }),
      ],
      [
        'no getIdentifier',
        () =>
          createConnectFlow({
            secret: CONNECT_SECRET,
            getIdentifier: undefined as unknown as () => string,
          }),
      ],
      [
        'state with a bad ttl',
        () => createConnectState({ secret: CONNECT_SECRET, ttlSeconds: -1 }),
      ],
      [
        'redirect to a bad callback',
        () =>
          createConnectRedirect({
            redirectUrl: 'https://c.example/connect',
            svcUserId: 'u',
            callback: `javascript:${CONNECT_SECRET}`,
            secret: CONNECT_SECRET,
          }),
      ],
      [
        'redirect with a bad redirectUrl',
        () =>
          createConnectRedirect({
            redirectUrl: `not a url ${CONNECT_SECRET}`,
            svcUserId: 'u',
            callback: 'https://p.example/cb',
            secret: CONNECT_SECRET,
          }),
      ],
      [
        'callback not http(s)',
        () => buildConnectCallback(`data:${CONNECT_SECRET}`, 'member', CONNECT_SECRET),
      ],
      [
        'callback with an empty identifier',
        () => buildConnectCallback('https://p.example/cb', '', CONNECT_SECRET),
      ],
      ['sign a bad URL', () => signUrl(`::${CONNECT_SECRET}`, CONNECT_SECRET)],
      [
        'verify with an empty secret in a list',
        () => verifySignedUrl('https://c.example/?signature=00', [CONNECT_SECRET, '']),
      ],
      [
        'read a redirect with a bad allow-list',
        () =>
          readConnectRedirect('https://c.example/', CONNECT_SECRET, {
            allowedCallbackOrigins: [`ftp://${CONNECT_SECRET}`],
          }),
      ],
      [
        'express verificationErrors on a foreign handler',
        () => verificationErrors((() => {}) as never),
      ],
      [
        'fastify verification plugin without a path',
        async () => {
          const app = Fastify();
          await app.register(fastifyVerify, { path: API_KEY, apiKey: [API_KEY, ''], verify });
          await app.ready();
        },
      ],
      [
        'fastify connect plugin with an empty secret',
        async () => {
          const app = Fastify();
          await app.register(fastifyConnect, {
            path: '/connect',
            secret: [CONNECT_SECRET, ''],
            getIdentifier: () => 'm',
          });
          await app.ready();
        },
      ],
    ];
    let thrown = 0;
    const quiet: string[] = [];
    for (const [name, attempt] of attempts) {
      try {
        await attempt();
        quiet.push(name);
      } catch (error) {
        thrown++;
        scanner.scan(
          name,
          `${String(error)}\n${(error as Error).stack ?? ''}\n${inspect(error, { depth: 5 })}`,
        );
      }
    }
    record({
      area: 'Verification endpoints: secrets',
      subject: 'start-up errors (core, express, fastify)',
      requests: 0,
      faults: attempts.length,
      held: `${thrown} misconfigurations threw; none of their messages, stacks or inspected forms names a secret`,
      violations: scanner.leakCount + quiet.length,
    });
    expect(quiet).toEqual([]);
    expect(scanner.leaks).toEqual([]);
  });
});
