/**
 * Faults around every adapter's verification endpoint: handlers that throw, reject, return
 * garbage, never settle or settle late; clients that trickle, stop, abort, overrun their
 * content-length or hold connections; and a 100 MB streamed body, measured by the server's peak
 * memory.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MESSAGES } from '@questkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL } from '../config.js';
import { ADAPTER_LABELS, SUITE_ADAPTERS } from '../harness/adapters.js';
import { claimHead, claimJson, claimSpec } from '../harness/claims.js';
import { contractViolations, isParserRefusal, messageOf } from '../harness/contract.js';
import { runPool } from '../harness/pool.js';
import { exchange, open, readResponse, serializeRequest } from '../harness/raw-http.js';
import { LeakScanner } from '../harness/secrets.js';
import { type ServerProcess, startServer } from '../harness/server-process.js';
import { closedWithin, streamUpload } from '../harness/stream.js';
import { mb, record } from '../report/record.js';
import { type AdapterName, FAULT_QUESTS, type FaultQuest, ROUTES } from '../servers/protocol.js';

// Short enough to keep the suite fast, long enough that a busy CI machine never trips it by accident.
const TIMEOUT_MS = 1_000;
const LATE_BY_MS = 300;
const REPEAT = FULL ? 10 : 2;
const HELD = FULL ? 200 : 30;
const UPLOAD_BYTES = 100 * 1024 * 1024;
/** Peak memory an upload may add where questkit reads the body itself. */
const PEAK_RSS_LIMIT = 32 * 1024 * 1024;
/**
 * Behind an app-level `express.json()`, body-parser reads off the whole body before it reports
 * "too large" (its design, for keep-alive): 100 MB of garbage passes through V8's young
 * generation, which alone grows the RSS by about 32 MB. Not buffering means staying well under
 * the body's size.
 */
const PARSER_PEAK_RSS_LIMIT = 50 * 1024 * 1024;

const LATE: readonly FaultQuest[] = ['settles-late', 'rejects-late'];

function expected(quest: FaultQuest): { status: number; message: string; onError: string | null } {
  if (quest === 'answers') return { status: 200, message: 'Verified.', onError: null };
  if (quest === 'never-settles') {
    return { status: 400, message: DEFAULT_MESSAGES.timeout, onError: null };
  }
  if (LATE.includes(quest))
    return { status: 400, message: DEFAULT_MESSAGES.timeout, onError: 'timeout' };
  return { status: 400, message: DEFAULT_MESSAGES.handlerError, onError: 'handler_error' };
}

/** Routes that read the body themselves (with core's deadline), per adapter. */
function streamingRoutes(adapter: AdapterName): string[] {
  return adapter.startsWith('express') ? [ROUTES.verify, ROUTES.verifyParsed] : [ROUTES.verify];
}

describe.each(SUITE_ADAPTERS)('faults around the %s verification endpoint', (adapter) => {
  let server: ServerProcess;
  const scanner = new LeakScanner();
  const tally = { handlerRequests: 0, handlerFaults: 0, clientRequests: 0, clientFaults: 0 };
  const handlerViolations: string[] = [];
  const clientViolations: string[] = [];
  let parserAnswers = 0;

  beforeAll(async () => {
    server = await startServer(adapter, { timeoutMs: TIMEOUT_MS, lateByMs: LATE_BY_MS });
  });

  afterAll(async () => {
    const crash = server.crash();
    const stats = crash ? undefined : await server.stats();
    await server.close();
    const health: string[] = [];
    if (crash) health.push(`server crashed: ${JSON.stringify(crash)}`);
    for (const change of stats?.pollution ?? []) health.push(`prototype pollution: ${change}`);
    if ((stats?.unhandledRejections ?? 0) > 0)
      health.push(`${stats?.unhandledRejections} unhandled rejections`);
    scanner.scan('server output', server.output());
    for (const event of server.onErrors) scanner.scan('onError', event.text);
    for (const leak of scanner.leaks) health.push(`secret in ${leak.where}: ${leak.excerpt}`);
    record({
      area: 'Verification endpoints: faults',
      subject: `${ADAPTER_LABELS[adapter]}: handlers`,
      requests: tally.handlerRequests,
      faults: tally.handlerFaults,
      held:
        'throw, reject, 5 kinds of garbage, never settling, settling or rejecting after the deadline: ' +
        'each answered once with a 400 {message} (generic or timeout); late results reported to onError ' +
        'once and never written; the connection stays usable',
      violations: handlerViolations.length,
    });
    record({
      area: 'Verification endpoints: faults',
      subject: `${ADAPTER_LABELS[adapter]}: clients`,
      requests: tally.clientRequests,
      faults: tally.clientFaults,
      held:
        `slowloris bodies, bodies stopped mid-way, aborted uploads, bytes past content-length, ${HELD} held ` +
        'connections: 400 {message} at the deadline and the connection closed, other requests still answered; ' +
        `bytes past content-length judged on the declared body (${parserAnswers} refused first by Node's HTTP parser); ` +
        `no crash, ${stats?.unhandledRejections ?? '?'} unhandled rejections, no secret in output`,
      violations: clientViolations.length + health.length,
    });
    expect(health).toEqual([]);
  });

  it('answers each misbehaving handler once, and reports late results to onError', async () => {
    const requestIds = new Map<string, FaultQuest>();
    for (let round = 0; round < REPEAT; round++) {
      await Promise.all(
        FAULT_QUESTS.map(async (quest) => {
          const requestId = `${quest}-${round}`;
          requestIds.set(requestId, quest);
          tally.handlerRequests++;
          if (quest !== 'answers') tally.handlerFaults++;
          const want = expected(quest);
          const socket = await open(server.port);
          socket.on('error', () => {});
          try {
            const pending = readResponse(socket, {
              timeoutMs: 5_000,
              // Long enough for a late result to arrive: any byte after the answer is a second write.
              lingerMs: LATE.includes(quest) ? TIMEOUT_MS + LATE_BY_MS + 200 : 50,
            });
            socket.write(serializeRequest(claimSpec(ROUTES.faults, quest, requestId)));
            const response = await pending;
            scanner.scan('answer', response.raw.toString('latin1'));
            const problems = contractViolations(response, { head: false });
            if (problems.length === 0 && response.status !== want.status)
              problems.push(`status ${response.status}`);
            if (problems.length === 0 && messageOf(response) !== want.message) {
              problems.push(`message ${JSON.stringify(messageOf(response))}`);
            }
            if (response.rest.length > 0)
              problems.push(`second write: ${response.rest.toString('latin1').slice(0, 80)}`);
            // The same connection still serves the next claim, unless the server chose to close it.
            if (
              !(response.headers.get('connection') ?? []).includes('close') &&
              !socket.destroyed
            ) {
              tally.handlerRequests++;
              const next = readResponse(socket, { timeoutMs: 5_000 });
              socket.write(
                serializeRequest(claimSpec(ROUTES.faults, 'answers', `${requestId}-next`)),
              );
              const second = await next;
              if (second.status !== 200)
                problems.push(`next request on the connection: ${second.status}`);
            }
            for (const problem of problems) handlerViolations.push(`${quest}: ${problem}`);
          } catch (error) {
            handlerViolations.push(`${quest}: ${(error as Error).message}`);
          } finally {
            socket.destroy();
          }
        }),
      );
    }
    // Late results: each reported once, as a timeout, after the answer was written.
    for (const [requestId, quest] of requestIds) {
      const want = expected(quest).onError;
      if (want === 'timeout') {
        await server
          .waitForOnError((event) => event.requestId === requestId, 5_000)
          .catch(() =>
            handlerViolations.push(`${requestId}: late result never reported to onError`),
          );
      }
    }
    await sleep(LATE_BY_MS + 100);
    for (const [requestId, quest] of requestIds) {
      const events = server.onErrors.filter((event) => event.requestId === requestId);
      const want = expected(quest).onError;
      const reasons = events.map((event) => event.reason);
      if (want === null ? events.length !== 0 : reasons.join() !== want) {
        handlerViolations.push(
          `${requestId}: onError calls ${JSON.stringify(reasons)}, expected ${want ?? 'none'}`,
        );
      }
    }
    expect(handlerViolations).toEqual([]);
  });

  it('answers a body trickled slower than the deadline (slowloris), then closes', async () => {
    const violations: string[] = [];
    for (const route of streamingRoutes(adapter).filter((r) => r !== ROUTES.verifyParsed)) {
      await runPool(REPEAT, REPEAT, async (round) => {
        tally.clientRequests++;
        tally.clientFaults++;
        const socket = await open(server.port);
        socket.on('error', () => {});
        let trickling = true;
        try {
          const pending = readResponse(socket, { timeoutMs: 5_000 });
          socket.write(claimHead(route, { contentLength: 400 }));
          const trickle = (async () => {
            for (let i = 0; trickling && i < 200 && !socket.destroyed; i++) {
              socket.write('{');
              await sleep(40);
            }
          })();
          const response = await pending;
          const problems = contractViolations(response, { head: false });
          if (problems.length === 0 && messageOf(response) !== DEFAULT_MESSAGES.timeout) {
            problems.push(`message ${JSON.stringify(messageOf(response))}`);
          }
          // The client keeps trickling: only the server closing the connection frees it.
          if (!(await closedWithin(socket, 2_000)))
            problems.push('connection left open after the answer');
          trickling = false;
          await trickle;
          for (const problem of problems)
            violations.push(`slowloris ${route} #${round}: ${problem}`);
        } catch (error) {
          violations.push(`slowloris ${route} #${round}: ${(error as Error).message}`);
        } finally {
          trickling = false;
          socket.destroy();
        }
      });
    }
    clientViolations.push(...violations);
    expect(violations).toEqual([]);
  });

  it('answers a body that stops mid-way, and survives clients that abort', async () => {
    const violations: string[] = [];
    const body = claimJson('answers', 'stopped');
    for (let round = 0; round < REPEAT; round++) {
      tally.clientRequests++;
      tally.clientFaults++;
      const socket = await open(server.port);
      socket.on('error', () => {});
      try {
        const pending = readResponse(socket, { timeoutMs: 5_000 });
        socket.write(claimHead(ROUTES.verify, { contentLength: body.length + 100 }));
        socket.write(body);
        const response = await pending;
        const problems = contractViolations(response, { head: false });
        if (problems.length === 0 && messageOf(response) !== DEFAULT_MESSAGES.timeout) {
          problems.push(`message ${JSON.stringify(messageOf(response))}`);
        }
        if (!(await closedWithin(socket, 2_000)))
          problems.push('connection left open after the answer');
        for (const problem of problems) violations.push(`stopped body #${round}: ${problem}`);
      } catch (error) {
        violations.push(`stopped body #${round}: ${(error as Error).message}`);
      } finally {
        socket.destroy();
      }
    }
    // Clients that vanish mid-body, at once or after a pause, on every route.
    const routes = [...streamingRoutes(adapter), ROUTES.faults];
    await runPool(REPEAT * 5 * routes.length, 10, async (index) => {
      tally.clientRequests++;
      tally.clientFaults++;
      const socket = await open(server.port);
      socket.on('error', () => {});
      socket.write(claimHead(routes[index % routes.length]!, { contentLength: 1_000 }));
      socket.write(body.slice(0, 40));
      if (index % 2 === 1) await sleep(TIMEOUT_MS / 3);
      socket.destroy();
    });
    await sleep(TIMEOUT_MS + 100);
    tally.clientRequests++;
    const after = await exchange(
      server.port,
      serializeRequest(claimSpec(ROUTES.faults, 'answers', 'after-aborts', { close: true })),
      {
        timeoutMs: 5_000,
      },
    );
    if (after.status !== 200) violations.push(`after aborted uploads: status ${after.status}`);
    clientViolations.push(...violations);
    expect(violations).toEqual([]);
  });

  it('judges the declared body when more bytes follow it', async () => {
    const violations: string[] = [];
    const body = claimJson('answers', 'overrun');
    const cases = [
      // The claim, then the tail of a longer JSON text: bytes past content-length.
      { name: 'bytes past content-length', declared: body.length, status: 200 },
      // A content-length short of the JSON: the endpoint sees truncated JSON.
      { name: 'content-length short of the JSON', declared: body.length - 10, status: 400 },
    ];
    for (const item of cases) {
      for (let round = 0; round < REPEAT; round++) {
        tally.clientRequests++;
        tally.clientFaults++;
        try {
          const response = await exchange(
            server.port,
            Buffer.concat([
              claimHead(ROUTES.faults, { contentLength: item.declared }),
              Buffer.from(`${body},"questId":"throws","extra":"${'x'.repeat(200)}"}`),
            ]),
            { timeoutMs: 5_000 },
          );
          // The extra bytes are the start of a next request that Node's HTTP parser refuses: it
          // may answer that with its own 400 (bare, or Fastify's clientError JSON) and close before the endpoint's answer is
          // written. Either answer is fine; an answer judged on more than the declared bytes, a
          // 5xx or silence is not.
          const fromParser = response.status === 400 && isParserRefusal(response);
          if (fromParser) parserAnswers++;
          else {
            const problems = contractViolations(response, { head: false });
            if (response.status !== item.status) problems.push(`status ${response.status}`);
            for (const problem of problems) violations.push(`${item.name}: ${problem}`);
          }
        } catch (error) {
          violations.push(`${item.name}: ${(error as Error).message}`);
        }
      }
    }
    const stats = await server.stats();
    if (stats.unhandledRejections > 0) violations.push('unhandled rejection');
    clientViolations.push(...violations);
    expect(violations).toEqual([]);
  });

  it(`keeps answering while ${HELD} connections are held open`, async () => {
    const violations: string[] = [];
    const held = await Promise.all(
      Array.from({ length: HELD }, async (_, index) => {
        const socket = await open(server.port);
        socket.on('error', () => {});
        const kind = index % 3;
        // Idle; half a request head; a whole head and half a body.
        if (kind === 1) socket.write(`POST ${ROUTES.verify} HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
        if (kind === 2) {
          socket.write(claimHead(ROUTES.verify, { contentLength: 500 }));
          socket.write('{"userId":');
        }
        return socket;
      }),
    );
    tally.clientFaults += HELD;
    try {
      const normal = FULL ? 100 : 20;
      await runPool(normal, 4, async (index) => {
        tally.clientRequests++;
        try {
          const response = await exchange(
            server.port,
            serializeRequest(
              claimSpec(ROUTES.faults, 'answers', `while-held-${index}`, { close: true }),
            ),
            { timeoutMs: 5_000 },
          );
          if (response.status !== 200) violations.push(`while held: status ${response.status}`);
        } catch (error) {
          violations.push(`while held: ${(error as Error).message}`);
        }
      });
      // The half-sent bodies got their deadline answer and were closed.
      const halfBodies = held.filter((_, index) => index % 3 === 2);
      const closed = await Promise.all(halfBodies.map((socket) => closedWithin(socket, 3_000)));
      const open_ = closed.filter((done) => !done).length;
      if (open_ > 0) violations.push(`${open_} half-sent bodies not answered and closed`);
    } finally {
      for (const socket of held) socket.destroy();
    }
    clientViolations.push(...violations);
    expect(violations).toEqual([]);
  });
});

describe.each(
  SUITE_ADAPTERS,
)('a 100 MB streamed body to the %s verification endpoint', (adapter) => {
  const variants = [
    ...streamingRoutes(adapter).map((route) => ({ route, chunked: true })),
    ...(FULL ? [{ route: ROUTES.verify, chunked: false }] : []),
  ];

  it.each(variants)('is refused without being buffered ($route, chunked: $chunked)', async ({
    route,
    chunked,
  }) => {
    // A fresh server per upload, so its peak memory is this upload's alone.
    const server = await startServer(adapter, { timeoutMs: 8_000 });
    const violations: string[] = [];
    try {
      for (let i = 0; i < 50; i++) {
        await exchange(
          server.port,
          serializeRequest(claimSpec(route, 'quest-1', `warm-${i}`, { close: true })),
          {
            timeoutMs: 5_000,
          },
        );
      }
      const before = await server.stats({ gc: true });
      const head = claimHead(route, chunked ? 'chunked' : { contentLength: UPLOAD_BYTES });
      const outcome = await streamUpload(server.port, head, {
        totalBytes: UPLOAD_BYTES,
        chunked,
        timeoutMs: 60_000,
      });
      const after = await server.stats();
      const growth = after.maxRss - before.maxRss;
      const limit = route === ROUTES.verifyParsed ? PARSER_PEAK_RSS_LIMIT : PEAK_RSS_LIMIT;
      // The endpoint's own count of "too large" answers on this route, from onResult.
      const key = `${route} body_too_large`;
      const refusals = (after.reasons[key] ?? 0) - (before.reasons[key] ?? 0);
      if (refusals !== 1) violations.push(`${refusals} body_too_large answers`);
      if (!outcome.response) {
        // The server answered and closed while the client was still sending: closing a socket
        // with unread bytes makes the kernel reset it, which can discard the 400 before the
        // client reads it. The refusal itself is what counts (and the count above proves it).
        if (!outcome.closedByServer) violations.push(`no answer: ${outcome.error}`);
      } else {
        violations.push(...contractViolations(outcome.response, { head: false }));
        if (outcome.response.status !== 400) violations.push(`status ${outcome.response.status}`);
      }
      if (growth >= limit) violations.push(`peak RSS grew by ${mb(growth)}`);
      if (after.unhandledRejections > 0) violations.push('unhandled rejection');
      record({
        area: 'Verification endpoints: faults',
        subject: `${ADAPTER_LABELS[adapter]}: 100 MB body to ${route}${chunked ? ' (chunked)' : ' (declared)'}`,
        requests: 51,
        faults: 1,
        held:
          (outcome.response
            ? 'refused with 400 {message}'
            : 'refused (the 400 was lost to the reset of a connection closed mid-upload)') +
          ` after the client sent ${mb(outcome.bytesSent)}; ` +
          `server peak RSS +${mb(Math.max(0, growth))} (limit ${mb(limit)})` +
          (route === ROUTES.verifyParsed ? '; body-parser drains the body before answering' : '') +
          (outcome.closedByServer ? '; connection closed' : ''),
        violations: violations.length,
      });
      expect(violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
