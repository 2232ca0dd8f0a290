/**
 * Requests that are not well-formed HTTP/1.1. Node's HTTP parser refuses them (400, 417 or 431)
 * before any framework or adapter runs, so they are outside questkit's `{message}` contract; what
 * is checked is that each is refused with a 4xx, the server survives, and the next request is
 * answered normally.
 */
import { describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { claimJson, claimSpec } from '../harness/claims.js';
import { contractViolations, isParserRefusal } from '../harness/contract.js';
import { exchange, serializeRequest } from '../harness/raw-http.js';
import { API_KEY, LeakScanner } from '../harness/secrets.js';
import { startServer } from '../harness/server-process.js';
import { record } from '../report/record.js';
import { ROUTES } from '../servers/protocol.js';

const body = claimJson('quest-1', 'framing');
const head = (extra: string[], requestLine = `POST ${ROUTES.verify} HTTP/1.1`) =>
  [
    requestLine,
    'host: 127.0.0.1',
    `x-api-key: ${API_KEY}`,
    'content-type: application/json',
    ...extra,
  ].join('\r\n');

/** Malformed requests, each with its raw bytes. */
const CASES: { name: string; bytes: string }[] = [
  {
    name: 'content-length and transfer-encoding',
    bytes: `${head([`content-length: ${body.length}`, 'transfer-encoding: chunked'])}\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
  },
  {
    name: 'two different content-lengths',
    bytes: `${head([`content-length: ${body.length}`, 'content-length: 5'])}\r\n\r\n${body}`,
  },
  {
    name: 'non-numeric content-length',
    bytes: `${head(['content-length: 12abc'])}\r\n\r\n${body}`,
  },
  { name: 'negative content-length', bytes: `${head(['content-length: -1'])}\r\n\r\n${body}` },
  {
    name: 'header section over 16 KiB',
    bytes: `${head([`x-padding: ${'p'.repeat(17_000)}`, `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'space in a header name',
    bytes: `${head(['x bad: 1', `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'NUL in a header value',
    bytes: `${head(['x-bad: a\u0000b', `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'bare CR in a header value',
    bytes: `${head(['x-bad: a\rb', `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'obsolete line folding',
    bytes: `${head(['x-folded: a', ' b', `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'bad chunk size',
    bytes: `${head(['transfer-encoding: chunked'])}\r\n\r\nzz\r\n${body}\r\n0\r\n\r\n`,
  },
  {
    name: 'transfer-encoding not ending in chunked',
    bytes: `${head(['transfer-encoding: chunked, gzip'])}\r\n\r\n${body}`,
  },
  {
    name: 'unknown HTTP version',
    bytes: `${head([`content-length: ${body.length}`], `POST ${ROUTES.verify} HTTP/9.9`)}\r\n\r\n${body}`,
  },
  {
    name: 'unknown method',
    bytes: `${head([`content-length: ${body.length}`], `FROB ${ROUTES.verify} HTTP/1.1`)}\r\n\r\n${body}`,
  },
  {
    name: 'no host header',
    bytes: `POST ${ROUTES.verify} HTTP/1.1\r\nx-api-key: ${API_KEY}\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
  },
  {
    name: 'expectation other than 100-continue',
    bytes: `${head(['expect: 200-ok', `content-length: ${body.length}`])}\r\n\r\n${body}`,
  },
  {
    name: 'not HTTP at all',
    bytes:
      '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003 binary TLS hello\r\n\r\n',
  },
];

describe.each(SUITE_ADAPTERS)('malformed HTTP to the %s verification endpoint', (adapter) => {
  it(`is refused by the HTTP server with a 4xx, and the server goes on (${CASES.length} cases)`, async () => {
    const server = await startServer(adapter);
    const scanner = new LeakScanner();
    const violations: string[] = [];
    const statuses = new Map<number, number>();
    const rounds = FULL ? 5 : 1;
    let sent = 0;
    try {
      for (let round = 0; round < rounds; round++) {
        for (const item of CASES) {
          sent++;
          try {
            const response = await exchange(server.port, Buffer.from(item.bytes, 'latin1'), {
              timeoutMs: 5_000,
            });
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            scanner.scan(item.name, response.raw.toString('latin1'));
            // Either the server's own refusal, or (for what its parser tolerates) questkit's answer.
            if (!isParserRefusal(response)) {
              for (const problem of contractViolations(response, { head: false })) {
                violations.push(`${item.name}: ${problem}`);
              }
            }
          } catch (error) {
            violations.push(`${item.name}: ${(error as Error).message}`);
          }
        }
      }
      sent++;
      const after = await exchange(
        server.port,
        serializeRequest(claimSpec(ROUTES.verify, 'quest-1', 'after', { close: true })),
        {
          timeoutMs: 5_000,
        },
      );
      const afterProblems = contractViolations(after, { head: false });
      if (afterProblems.length > 0) violations.push(`next request: ${afterProblems.join(', ')}`);
      const crash = server.crash();
      if (crash) violations.push(`server crashed: ${JSON.stringify(crash)}`);
      scanner.scan('server output', server.output());
      for (const leak of scanner.leaks) violations.push(`secret in ${leak.where}: ${leak.excerpt}`);
      const summary = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ');
      record({
        area: 'Verification endpoints: HTTP framing',
        subject: ADAPTER_LABELS[adapter],
        requests: sent,
        faults: sent - 1,
        held:
          `${CASES.length} kinds of malformed HTTP (conflicting or bad framing, oversized or invalid headers, bad ` +
          `version or method, no host, TLS bytes): ${summary}, refused by the HTTP server before any framework ` +
          'runs (outside the {message} contract); no crash, next request answered',
        violations: violations.length,
      });
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
