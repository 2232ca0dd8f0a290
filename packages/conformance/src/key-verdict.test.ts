import { afterEach, describe, expect, it } from 'vitest';
import { runConformance, WRONG_API_KEY } from './run.js';
import { readAll, type Served, serve } from './test-support/serve.js';
import type { ConformanceReport } from './types.js';

// The key verdict, one way of answering at a time: hand-written endpoints on loopback that tell
// the task key, a wrong key and no key apart (or not), and what the judge makes of each. The
// platform's 10 s limit: a busy machine's slow answer is no verdict here.
const KEY = 'key-verdict-test-key';
const FAST = { timeoutMs: 10_000, burst: 2, samples: 2 } as const;

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A status and a body, or a connection closed without an answer. */
type Reply = readonly [status: number, body: string] | 'reset';
type Sender = 'task key' | 'wrong key' | 'no key' | 'other key';

const json = (status: number, message: string): Reply => [status, JSON.stringify({ message })];

/** An endpoint whose answer depends only on the key a claim carries. */
async function endpoint(reply: (sender: Sender) => Reply): Promise<string> {
  const served = await serve(async (req, res) => {
    await readAll(req);
    const key = req.headers['x-api-key'];
    const sender: Sender =
      key === KEY
        ? 'task key'
        : key === WRONG_API_KEY
          ? 'wrong key'
          : key === undefined
            ? 'no key'
            : 'other key';
    const answer = reply(sender);
    if (answer === 'reset') {
      req.socket.destroy();
      return;
    }
    const [status, body] = answer;
    const type = body.startsWith('{') ? 'application/json' : 'text/plain';
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  servers.push(served);
  return served.url;
}

/** The key verdict of a run over the claim and the two key probes (or `only` of them). */
async function keyVerdict(url: string, only: readonly string[] = ['auth.']) {
  const report = await runConformance({ url, apiKey: KEY, only, ...FAST });
  return { report, key: report.checks.find((check) => check.id === 'member.api-key')! };
}

const sentence = (check: ConformanceReport['checks'][number]) =>
  check.findings.map((finding) => finding.message).join(' ');

// A correct endpoint: the task key's claim is answered, any other key refused with its reason.
const correct = (sender: Sender): Reply =>
  sender === 'task key'
    ? json(200, 'Done.')
    : json(400, sender === 'no key' ? 'Missing key.' : 'Wrong key.');

describe('the key verdict, from one of the two key probes', () => {
  it('passes a correct endpoint with only the missing-key claim to compare', async () => {
    const { key } = await keyVerdict(await endpoint(correct), ['auth.missing-key']);
    expect(key).toMatchObject({ status: 'pass', findings: [] });
  });

  it('passes a correct endpoint with only the wrong-key claim to compare', async () => {
    const { key } = await keyVerdict(await endpoint(correct), ['auth.wrong-key']);
    expect(key).toMatchObject({ status: 'pass', findings: [] });
  });

  it('does not judge an identical refusal of the missing-key claim alone', async () => {
    const url = await endpoint(() => json(400, 'Not yet complete.'));
    const { key } = await keyVerdict(url, ['auth.missing-key']);
    expect(key).toMatchObject({
      status: 'not_judged',
      skipReason: expect.stringMatching(/^the task key, a wrong key and no key all got the same/),
    });
  });
});

describe('the key verdict, from the answers to the task key, a wrong key and no key', () => {
  it('fails identical refusals that read as a refused key: every member would see them', async () => {
    const { key } = await keyVerdict(await endpoint(() => json(400, 'Invalid API key.')));
    expect(key.status).toBe('fail');
    expect(key.findings[0]?.code).toBe('key-refused');
    expect(sentence(key)).toMatch(
      /^your endpoint refuses the key you gave: the task key, a wrong key and no key all got 400 "Invalid API key\.", which reads as a refused key\./,
    );
  });

  it('does not count the same words under another status as the same answer', async () => {
    const url = await endpoint((sender) =>
      sender === 'task key' ? json(400, 'Not yet.') : json(403, 'Not yet.'),
    );
    const { key } = await keyVerdict(url);
    expect(key).toMatchObject({ status: 'pass', findings: [] });
  });

  it("fails a task key answered as a wrong key's, though no key is told apart", async () => {
    const url = await endpoint((sender) =>
      sender === 'no key' ? json(400, 'No key.') : json(400, 'Not yet.'),
    );
    const { key } = await keyVerdict(url);
    expect(key.findings[0]?.code).toBe('key-refused');
    expect(sentence(key)).toMatch(
      /^your endpoint refuses the key you gave: a claim with it gets the same answer as one with a wrong key, 400 "Not yet\."/,
    );
  });

  it('names the key a claim was accepted with, and the answer, when it differs from yours', async () => {
    const url = await endpoint((sender) =>
      sender === 'no key' ? json(200, 'Other.') : json(200, 'Done.'),
    );
    const { key } = await keyVerdict(url);
    expect(key.findings[0]?.code).toBe('key-accepted');
    expect(sentence(key)).toMatch(
      /^accepted a claim with a wrong X-Api-Key or no X-Api-Key \(200 "Done\."\): anyone who finds the URL can call it/,
    );
  });

  it('accepted with a wrong key while the task key is refused: accepted, not unchecked', async () => {
    const url = await endpoint((sender) =>
      sender === 'task key' ? json(400, 'Not yet.') : json(200, 'Done.'),
    );
    const { key } = await keyVerdict(url);
    expect(key.findings[0]?.code).toBe('key-accepted');
  });

  it('quotes an answer without a JSON message as such', async () => {
    const { key } = await keyVerdict(await endpoint(() => [200, 'OK']));
    expect(key.findings[0]?.code).toBe('key-unchecked');
    expect(sentence(key)).toMatch(
      /^it does not check the key: a claim with a wrong X-Api-Key or no X-Api-Key gets the same answer as yours, 200 \(no JSON message\)\./,
    );
  });

  it('does not judge the key when a claim without it got no answer, and says why', async () => {
    const url = await endpoint((sender) => (sender === 'no key' ? 'reset' : correct(sender)));
    const { key, report } = await keyVerdict(url);
    expect(key.status).toBe('not_judged');
    expect(key.skipReason).toMatch(
      /^the claim with no X-Api-Key got no answer \(.+\), so nothing tells whether the endpoint checks the key\.$/,
    );
    // The reason is the connection's own, not a stand-in.
    expect(key.skipReason).not.toMatch(/the request failed/);
    // The key probe that got no answer judged nothing: the run is not judged, not passed.
    expect(report.summary.verdict).toBe('not_judged');
  });

  it('fails a wrong key accepted even when the claim without a key got no answer', async () => {
    const url = await endpoint((sender) =>
      sender === 'no key' ? 'reset' : sender === 'wrong key' ? json(200, 'Hi.') : correct(sender),
    );
    const { key } = await keyVerdict(url);
    expect(key.findings[0]?.code).toBe('key-accepted');
  });

  it('warns when the task has no key at all', async () => {
    const url = await endpoint(() => json(400, 'Not yet.'));
    const report = await runConformance({ url, noApiKey: true, only: ['auth.'], ...FAST });
    const key = report.checks.find((check) => check.id === 'member.api-key')!;
    expect(key.status).toBe('warn');
    expect(sentence(key)).toMatch(/^the task has no API key: anyone who finds the endpoint/);
  });

  it('does not judge the key when no claim got a 200 or 400 to compare', async () => {
    const { key } = await keyVerdict(await endpoint(() => json(500, 'Boom.')));
    expect(key).toMatchObject({
      status: 'not_judged',
      skipReason: 'the well-formed claim got no 200 or 400 answer to compare with a wrong key',
    });
  });
});
