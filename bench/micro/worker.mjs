/**
 * Core micro-benchmarks, run in their own pinned process:
 * `node --expose-gc micro/worker.mjs <budgetMs> <rounds> [caseId,...]`.
 * Each case and its reference are timed by mitata in interleaved rounds (case, reference, case,
 * reference, ...); prints one JSON line with the median of the rounds.
 */
import { strict as assert } from 'node:assert';
import {
  buildConnectCallback,
  checkApiKey,
  createConnectRedirect,
  createConnectState,
  createVerifier,
  ok,
  VerificationRequestSchema,
  verifySignedUrl,
} from '@questkit/core';
import { measure } from 'mitata';
import {
  API_KEY,
  CLAIM,
  CLAIM_BODY,
  CONNECT_SECRET,
  INVALID_CLAIM_BODY,
  MESSAGE,
  ROTATED_KEYS,
} from '../lib/claim.mjs';
import { invalidField } from '../lib/hand-written.mjs';
import { median, ratio, round } from '../lib/stats.mjs';
import {
  handWrittenDecide,
  nodeBuildConnectCallback,
  nodeCheckApiKey,
  nodeSignUrl,
  nodeStateToken,
  nodeVerifySignedUrl,
} from './reference.mjs';

const [budgetArg = '500', roundsArg = '3', only = ''] = process.argv.slice(2);
const budgetMs = Number(budgetArg);
const rounds = Number(roundsArg);

const headers = { 'content-type': 'application/json', 'x-api-key': API_KEY };
const verifier = createVerifier({ apiKey: API_KEY, verify: () => ok(MESSAGE) });

const CALLBACK = 'https://platform.example/connect/callback?state=8c1f2a&lang=en';
const IDENTIFIER = 'member-4f2a9c';
const redirect = await createConnectRedirect({
  redirectUrl: 'https://community.example/connect?utm_source=quest',
  svcUserId: CLAIM.userId,
  callback: CALLBACK,
  secret: CONNECT_SECRET,
});
const sealer = createConnectState({ secret: CONNECT_SECRET });
const referenceSealer = nodeStateToken(Buffer.from(CONNECT_SECRET));
const STATE = { svcUserId: CLAIM.userId, callback: CALLBACK };

/** Every case: what core does, and the reference doing the same work without questkit. */
const CASES = [
  {
    id: 'decide-valid',
    name: 'decide() valid claim',
    run: () => verifier.decide({ method: 'POST', headers, body: CLAIM_BODY }),
    reference: {
      name: 'hand-written: timingSafeEqual, JSON.parse, 5 fields',
      run: () => handWrittenDecide(headers, CLAIM_BODY),
    },
  },
  {
    id: 'decide-invalid',
    name: 'decide() invalid claim (requestId missing)',
    run: () => verifier.decide({ method: 'POST', headers, body: INVALID_CLAIM_BODY }),
    reference: {
      name: 'hand-written, same invalid claim',
      run: () => handWrittenDecide(headers, INVALID_CLAIM_BODY),
    },
  },
  {
    id: 'api-key-1',
    name: 'checkApiKey, 1 key',
    run: () => checkApiKey(API_KEY, API_KEY),
    reference: {
      name: 'node:crypto timingSafeEqual',
      run: () => nodeCheckApiKey(API_KEY, API_KEY),
    },
  },
  {
    id: 'api-key-5',
    name: 'checkApiKey, 5 keys (match is the last)',
    run: () => checkApiKey(API_KEY, ROTATED_KEYS),
    reference: {
      name: 'node:crypto timingSafeEqual x5',
      run: () => nodeCheckApiKey(API_KEY, ROTATED_KEYS),
    },
  },
  {
    id: 'schema-parse',
    name: 'schema parse (VerificationRequestSchema.safeParse)',
    run: () => VerificationRequestSchema.safeParse(CLAIM),
    reference: { name: 'hand-written typeof checks of 5 fields', run: () => invalidField(CLAIM) },
  },
  {
    id: 'verify-signed-url',
    name: 'verifySignedUrl (connect redirect)',
    run: async () => verifySignedUrl(redirect, CONNECT_SECRET),
    reference: {
      name: 'same algorithm, node:crypto HMAC',
      run: () => nodeVerifySignedUrl(redirect, CONNECT_SECRET),
    },
  },
  {
    id: 'build-connect-callback',
    name: 'buildConnectCallback',
    run: async () => buildConnectCallback(CALLBACK, IDENTIFIER, CONNECT_SECRET),
    reference: {
      name: 'same algorithm, node:crypto HMAC',
      run: () => nodeBuildConnectCallback(CALLBACK, IDENTIFIER, CONNECT_SECRET),
    },
  },
  {
    id: 'state-token',
    name: 'state token seal + open (jose HS256)',
    run: async () => sealer.open(await sealer.seal(STATE)),
    reference: {
      name: 'HS256 JWT by hand with node:crypto',
      run: () => referenceSealer.open(referenceSealer.seal(STATE)),
    },
  },
];

await checkReferencesAgree();

// mitata's defaults take at least 12 batches of 4096 calls, over a second for a 30 µs case: a
// small budget (the quick mode) also takes smaller and fewer batches.
const measureOptions =
  budgetMs < 100
    ? { min_cpu_time: budgetMs * 1e6, min_samples: 4, batch_samples: 256 }
    : { min_cpu_time: budgetMs * 1e6 };

const selected = only === '' ? CASES : CASES.filter((c) => only.split(',').includes(c.id));
const samples = new Map(selected.map((c) => [c.id, { run: [], reference: [] }]));
for (let index = 0; index < rounds; index++) {
  for (const benchCase of selected) {
    const entry = samples.get(benchCase.id);
    entry.run.push(await opsPerSecond(benchCase.run));
    entry.reference.push(await opsPerSecond(benchCase.reference.run));
  }
}

const cases = selected.map((benchCase) => {
  const entry = samples.get(benchCase.id);
  const ops = median(entry.run);
  const referenceOps = median(entry.reference);
  return {
    id: benchCase.id,
    name: benchCase.name,
    opsPerSecond: round(ops, 0),
    nsPerOp: round(1e9 / ops, 1),
    rounds: entry.run.map((value) => round(value, 0)),
    reference: {
      name: benchCase.reference.name,
      opsPerSecond: round(referenceOps, 0),
      nsPerOp: round(1e9 / referenceOps, 1),
      rounds: entry.reference.map((value) => round(value, 0)),
    },
    ratio: round(ratio(ops, referenceOps), 3),
  };
});
process.stdout.write(`${JSON.stringify({ budgetMs, rounds, cases })}\n`);

async function opsPerSecond(fn) {
  const stats = await measure(fn, { ...measureOptions });
  return 1e9 / stats.avg;
}

/** A reference that answers differently from core would make its ratio meaningless. */
async function checkReferencesAgree() {
  const valid = await verifier.decide({ method: 'POST', headers, body: CLAIM_BODY });
  assert.equal(valid.status, 200);
  assert.equal((await handWrittenDecide(headers, CLAIM_BODY)).status, 200);
  const invalid = await verifier.decide({ method: 'POST', headers, body: INVALID_CLAIM_BODY });
  assert.equal(invalid.status, 400);
  assert.equal((await handWrittenDecide(headers, INVALID_CLAIM_BODY)).status, 400);

  for (const keys of [API_KEY, ROTATED_KEYS]) {
    assert.equal(checkApiKey(API_KEY, keys), true);
    assert.equal(nodeCheckApiKey(API_KEY, keys), true);
    assert.equal(checkApiKey(`${API_KEY}x`, keys), false);
    assert.equal(nodeCheckApiKey(`${API_KEY}x`, keys), false);
  }
  assert.equal(VerificationRequestSchema.safeParse(CLAIM).success, invalidField(CLAIM) === null);

  assert.equal((await verifySignedUrl(redirect, CONNECT_SECRET)).ok, true);
  assert.equal(nodeVerifySignedUrl(redirect, CONNECT_SECRET).ok, true);
  const tampered = redirect.replace('svcUserId=', 'svcUserId=x');
  assert.equal((await verifySignedUrl(tampered, CONNECT_SECRET)).ok, false);
  assert.equal(nodeVerifySignedUrl(tampered, CONNECT_SECRET).ok, false);
  const referenceSigned = nodeSignUrl(
    'https://community.example/connect?a=1&b=x%20y',
    CONNECT_SECRET,
  );
  assert.equal((await verifySignedUrl(referenceSigned, CONNECT_SECRET)).ok, true);

  assert.equal(
    await buildConnectCallback(CALLBACK, IDENTIFIER, CONNECT_SECRET),
    nodeBuildConnectCallback(CALLBACK, IDENTIFIER, CONNECT_SECRET),
  );

  const opened = await sealer.open(await sealer.seal(STATE));
  assert.equal(opened.ok && opened.svcUserId, STATE.svcUserId);
  const referenceOpened = referenceSealer.open(referenceSealer.seal(STATE));
  assert.equal(referenceOpened.ok && referenceOpened.svcUserId, STATE.svcUserId);
}
