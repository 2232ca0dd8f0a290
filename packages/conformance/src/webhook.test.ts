import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWebhookReceiver } from '@questkit/core';
import { requestFromNode, writeNodeAnswer } from '@questkit/core/adapter';
import { KnownWebhookEventSchema, WEBHOOK_EVENT_TYPES } from '@questkit/core/api';
import { afterEach, describe, expect, it } from 'vitest';
import { formatWebhookHuman, formatWebhookJunit } from './reporters/webhook.js';
import { readAll, type Served, serve } from './test-support/serve.js';
import { checkWebhookReceiver, WEBHOOK_SECRET_ENV, type WebhookReport } from './webhook.js';

const SECRET = 'whsec-test-0001';

const open: Served[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

async function check(listener: Listener, options: { timeoutMs?: number } = {}) {
  const served = await serve(listener, '/webhooks');
  open.push(served);
  return checkWebhookReceiver({ url: served.url, secret: SECRET, ...options });
}

function statuses(report: WebhookReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
}

function messages(report: WebhookReport): string {
  return report.checks.flatMap((c) => c.findings.map((f) => f.message)).join('\n');
}

/** A receiver written with questkit: core's receiver behind node:http. */
function questkitReceiver(seen: unknown[] = []): Listener {
  const receiver = createWebhookReceiver({
    secret: SECRET,
    on: Object.fromEntries(
      WEBHOOK_EVENT_TYPES.map((type) => [type, async (event: unknown) => void seen.push(event)]),
    ),
  });
  return (req, res) => {
    void receiver.handle(requestFromNode(req), req).then((answer) => writeNodeAnswer(res, answer));
  };
}

/** Answers with `status` and `body` after reading the delivery (401 to a wrong secret, if asked). */
function answering(
  status: number,
  body: string,
  type = 'application/json',
  checkSecret = false,
): Listener {
  return (req, res) => {
    void readAll(req).then((raw) => {
      const { secret } = JSON.parse(raw.toString('utf8')) as { secret?: string };
      if (checkSecret && secret !== SECRET) res.writeHead(401).end('Wrong secret');
      else res.writeHead(status, { 'content-type': type }).end(body);
    });
  };
}

describe('checkWebhookReceiver', () => {
  it('passes a receiver written with questkit, and sends valid events of every type', async () => {
    const seen: unknown[] = [];
    const report = await check(questkitReceiver(seen));
    expect(statuses(report)).toEqual({
      ...Object.fromEntries(
        WEBHOOK_EVENT_TYPES.map((type) => [`webhook.delivery.${type}`, 'pass']),
      ),
      'webhook.repeat': 'pass',
      'webhook.wrong-secret': 'pass',
    });
    expect(report.summary).toMatchObject({ verdict: 'pass', ok: true, failed: 0 });
    // Handled once each: the repeat carried the same event id and was deduplicated.
    expect(seen).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    for (const event of seen) expect(KnownWebhookEventSchema.safeParse(event).success).toBe(true);
    expect(seen.map((event) => (event as { type: string }).type)).toEqual([...WEBHOOK_EVENT_TYPES]);
  });

  it('sends the secret in the body, no signature header, and the event under data', async () => {
    const bodies: Array<{ headers: IncomingMessage['headers']; body: Record<string, unknown> }> =
      [];
    await check((req, res) => {
      void readAll(req).then((raw) => {
        bodies.push({ headers: req.headers, body: JSON.parse(raw.toString('utf8')) });
        res.writeHead(200).end('{}');
      });
    });
    const n = WEBHOOK_EVENT_TYPES.length;
    expect(bodies).toHaveLength(n + 2);
    const [first] = bodies;
    const [repeat, wrong] = bodies.slice(n);
    for (const { headers } of bodies) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['user-agent']).toBe('Svc-Webhook');
      expect(Object.keys(headers).filter((h) => /sign|hmac/i.test(h))).toEqual([]);
    }
    expect(first!.body).toMatchObject({ type: 'JOINED_COMMUNITY', secret: SECRET });
    expect(Object.keys(first!.body).sort()).toEqual(['data', 'id', 'secret', 'time', 'type']);
    expect(first!.body.time).toBeCloseTo(Date.now(), -5);
    expect(first!.body.data).toMatchObject({
      user: { id: expect.any(String), email: expect.any(String) },
      community: { subdomain: 'questkit-check' },
    });
    const succeeded = bodies.find(({ body }) => body.type === 'QUEST_SUCCEEDED')!.body;
    expect(succeeded.data).toMatchObject({
      user: {
        twitter: { id: expect.any(String), username: expect.any(String) },
        discord: { id: expect.any(String), handle: expect.any(String) },
        addresses: { ethereum: expect.any(String) },
      },
      quest: { id: expect.any(String), xp: 100 },
    });
    const inputs = (succeeded.data as { taskInputs: { input: object }[] }).taskInputs;
    expect(inputs.map(({ input }) => Object.keys(input).join())).toEqual([
      'value',
      'value',
      'values',
      'fileUrls',
      'tweetId',
      '',
    ]);
    expect(repeat!.body.id).toBe(first!.body.id);
    expect(wrong!.body.secret).not.toBe(SECRET);
    expect(wrong!.body.id).not.toBe(first!.body.id);
  });

  it('fails a receiver that expects a signature header, and explains the format', async () => {
    const report = await check(answering(401, '{"error":"Missing signature header"}'));
    expect(report.summary.verdict).toBe('fail');
    expect(statuses(report)['webhook.wrong-secret']).toBe('pass');
    expect(report.summary.headline).toMatch(
      /^Every delivery got 401: the receiver refuses deliveries made as the platform makes them, so every event would be retried for days and then dropped\. /,
    );
    expect(report.summary.headline).toMatch(/no signature header/);
    const text = messages(report);
    expect(text).toMatch(/It said: "Missing signature header"/);
    expect(text).toMatch(/"secret" field/);
    expect(text).toMatch(/under "data"/);
    expect(report.summary.advice.join(' ')).toMatch(/createWebhookReceiver/);
  });

  it('fails a receiver that reads the event at the top level (400), data first', async () => {
    const report = await check((req, res) => {
      void readAll(req).then((raw) => {
        const body = JSON.parse(raw.toString('utf8')) as { userId?: string };
        if (!body.userId) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end('{"error":"userId is required"}');
        } else res.writeHead(200).end('ok');
      });
    });
    expect(report.summary.verdict).toBe('fail');
    const finding = report.checks[0]!.findings[0]!.message;
    expect(finding).toMatch(
      /^answered 400; a delivery needs exactly 200\. It said: "userId is required"\. The body is the event/,
    );
    expect(finding).toMatch(/data\.user\.id, data\.quest\.id, data\.community\.subdomain/);
    expect(finding).toMatch(/not body\.userId, not data\.userId/);
  });

  it('fails 204, a body over 5,000 bytes, and a repeat refused as a duplicate', async () => {
    expect(messages(await check(answering(204, '')))).toMatch(/201, 202 and 204 count as failures/);
    const big = await check(answering(200, 'x'.repeat(5001), 'text/plain'));
    expect(statuses(big)['webhook.delivery.JOINED_COMMUNITY']).toBe('fail');
    expect(messages(big)).toMatch(/body over 5000 bytes/);
    const exact = await check(answering(200, 'x'.repeat(5000), 'text/plain', true));
    expect(exact.summary.verdict).toBe('pass');

    const seen = new Set<string>();
    const dedupe = await check((req, res) => {
      void readAll(req).then((raw) => {
        const { id } = JSON.parse(raw.toString('utf8')) as { id: string };
        const again = seen.has(id);
        seen.add(id);
        res.writeHead(again ? 409 : 200).end(again ? 'Duplicate delivery' : 'ok');
      });
    });
    expect(statuses(dedupe)).toMatchObject({
      'webhook.delivery.JOINED_COMMUNITY': 'pass',
      'webhook.repeat': 'fail',
    });
    expect(messages(dedupe)).toMatch(/same event id: answer 200 to an event you already handled/);
  });

  it('fails a receiver that does not check the secret', async () => {
    const report = await check(answering(200, '{"ok":true}'));
    expect(statuses(report)).toMatchObject({
      'webhook.delivery.JOINED_COMMUNITY': 'pass',
      'webhook.wrong-secret': 'fail',
    });
    expect(messages(report)).toMatch(/accepted a delivery with a wrong secret/);
  });

  it('fails a receiver slower than the time limit', async () => {
    // Far slower than the limit given, so the machine's speed cannot change the verdict.
    const report = await check(
      (req, res) => {
        void readAll(req).then(() => setTimeout(() => res.writeHead(200).end('ok'), 3000));
      },
      { timeoutMs: 300 },
    );
    expect(statuses(report)['webhook.delivery.JOINED_COMMUNITY']).toBe('fail');
    expect(messages(report)).toMatch(
      /no complete answer within 300 ms\. The platform counts it as failed/,
    );
  }, 30_000);

  it('is not judged when nothing listens, with the rest skipped', async () => {
    const served = await serve(answering(200, 'ok'));
    await served.close();
    const report = await checkWebhookReceiver({ url: served.url, secret: SECRET });
    expect(report.summary.verdict).toBe('not_judged');
    expect(report.unreachable).toMatch(/ECONNREFUSED/);
    expect(report.summary.headline).toBe(
      `No answer from ${served.url}: connection refused (ECONNREFUSED). Is the receiver running, and are the host, port and scheme right?`,
    );
    expect(report.checks.slice(1).every((c) => c.status === 'skip')).toBe(true);
    expect(formatWebhookHuman(report).split('\n').at(-2)).toBe(
      'NOT JUDGED: some deliveries got no answer to judge (see above).',
    );
  });

  it('never shows the secret; its curl line reads it from the environment and works', async () => {
    let received = '';
    const report = await check((req, res) => {
      void readAll(req).then((raw) => {
        received = raw.toString('utf8');
        res.writeHead(401).end('{"error":"Invalid signature"}');
      });
    });
    const printed = [
      JSON.stringify(report),
      formatWebhookHuman(report, { verbose: true }),
      formatWebhookJunit(report),
    ].join('\n');
    expect(printed).not.toContain(SECRET);
    const curl = report.checks[0]!.curl!;
    expect(curl).toContain(`$${WEBHOOK_SECRET_ENV}`);
    received = '';
    const served = open[0]!;
    await new Promise<void>((resolve, reject) =>
      execFile(
        'sh',
        ['-c', curl],
        { env: { PATH: process.env.PATH ?? '', [WEBHOOK_SECRET_ENV]: SECRET }, timeout: 10_000 },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    expect(served.url).toBe(report.url);
    expect(JSON.parse(received)).toMatchObject({ type: 'JOINED_COMMUNITY', secret: SECRET });
  });

  it('hides the secret in an answer that echoes it, and marks where it was', async () => {
    const report = await check((req, res) => {
      void readAll(req).then((raw) => res.writeHead(400).end(raw));
    });
    expect(JSON.stringify(report)).not.toContain(SECRET);
    const first = report.checks[0]!;
    expect(JSON.parse(first.sent!.body!)).toMatchObject({ secret: 'REDACTED' });
    expect(JSON.parse(first.received!.body!)).toMatchObject({ secret: 'REDACTED' });
  });

  it('leads the human report with the headline and a failure, and names every check', async () => {
    const hmac = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');
    const report = await check((req, res) => {
      void readAll(req).then((raw) => {
        const ok = req.headers['x-signature'] === hmac(raw.toString('utf8'));
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(ok ? '{}' : '{"error":"Invalid signature"}');
      });
    });
    const text = formatWebhookHuman(report);
    const lines = text.split('\n');
    expect(lines[2]).toMatch(/^Every delivery got 401/);
    expect(lines[4]).toMatch(/FAIL {2}webhook\.delivery\.JOINED_COMMUNITY/);
    for (const check of report.checks) expect(text).toContain(check.id);
    expect(lines.at(-2)).toMatch(
      /^FAILED: \d+ deliveries failed: the platform counts them as failed, retries for days, and may disable the webhook\.$/,
    );
    expect(formatWebhookJunit(report)).toMatch(/<failure message="answered 401/);
  });

  it("leads with the receiver's own refusal of the secret, without the format explanation", async () => {
    const report = await check(
      answering(401, '{"message":"The webhook secret is missing or wrong."}'),
    );
    expect(report.summary.headline).toBe(
      `Every delivery got 401: the receiver says "The webhook secret is missing or wrong.". The receiver says the secret is wrong: is --secret the webhook's own secret (the platform shows it with the webhook)? A receiver that reads the secret from the body, as the platform sends it, answers 200 once they match.`,
    );
    expect(messages(report)).not.toMatch(/signature header|plus "secret"/);
    expect(report.summary.advice).toEqual([]);
  });

  it('names only the wrong-secret check when every delivery got 200', async () => {
    const report = await check(answering(200, '{}'));
    expect(statuses(report)['webhook.wrong-secret']).toBe('fail');
    const lines = formatWebhookHuman(report).split('\n');
    expect(lines.at(-2)).toBe(
      "FAILED: webhook.wrong-secret failed: the receiver takes a delivery with a wrong secret, so anyone who finds its URL can send it events the platform never sent. The platform's own deliveries succeed.",
    );
    expect(formatWebhookHuman(report)).not.toMatch(/retries for days/);
  });

  it("says what another status is, with the receiver's words", async () => {
    const report = await check(answering(500, '{"error":"database down"}'));
    expect(report.summary.headline).toBe(
      'Every delivery got 500 ("database down"): the platform counts each as failed and retries it for days.',
    );
  });

  it('says what another status is when the receiver gives no words', async () => {
    const report = await check(answering(500, ''));
    expect(report.summary.headline).toBe(
      'Every delivery got 500: the platform counts each as failed and retries it for days.',
    );
  });

  it('names the one failed delivery and the wrong secret together', async () => {
    const report = await check((req, res) => {
      void readAll(req).then((raw) => {
        const { type } = JSON.parse(raw.toString('utf8')) as { type?: string };
        res.writeHead(type === WEBHOOK_EVENT_TYPES[1] ? 500 : 200).end('{}');
      });
    });
    expect(report.summary.headline).toBeUndefined();
    expect(formatWebhookHuman(report).split('\n').at(-2)).toBe(
      `FAILED: webhook.delivery.${WEBHOOK_EVENT_TYPES[1]} failed: the platform counts it as failed, retries for days, and may disable the webhook. webhook.wrong-secret failed: the receiver takes a delivery with a wrong secret, so anyone who finds its URL can send it events the platform never sent.`,
    );
  });

  it('says when nothing answers at the path, or nothing takes a POST', async () => {
    const missing = await check(answering(404, 'Not Found', 'text/plain'));
    expect(missing.summary.headline).toBe(
      'Every delivery got 404: nothing answers at /webhooks. Is the path right?',
    );
    const method = await check(answering(405, ''));
    expect(method.summary.headline).toBe(
      'Every delivery got 405: nothing takes a POST at /webhooks. Deliveries are POSTs of JSON.',
    );
  });

  it('never prints the secret a receiver echoes back', async () => {
    const report = await check((req, res) => {
      void readAll(req).then((raw) =>
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `bad: ${raw}` })),
      );
    });
    const everything = [
      JSON.stringify(report),
      formatWebhookHuman(report),
      formatWebhookJunit(report),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
  });

  it('refuses bad options with a TypeError', async () => {
    await expect(checkWebhookReceiver({ url: 'ftp://x', secret: SECRET })).rejects.toThrow(
      /url must be an absolute http/,
    );
    await expect(checkWebhookReceiver({ url: 'http://127.0.0.1:1/', secret: '' })).rejects.toThrow(
      /secret must be a non-empty string/,
    );
  });
});
