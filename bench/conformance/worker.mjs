/**
 * Times the full conformance battery against a running endpoint, in its own process:
 * `node conformance/worker.mjs <port> <rounds>`. Prints one JSON line.
 */
import { runConformance } from '@questkit/conformance';
import { API_KEY, CONNECT_SECRET, ROUTE } from '../lib/claim.mjs';

const [port, roundsArg = '3', route = ROUTE] = process.argv.slice(2);
const rounds = Number(roundsArg);
const origin = `http://127.0.0.1:${port}`;

const runs = [];
for (let index = 0; index < rounds; index++) {
  const started = performance.now();
  const report = await runConformance({
    url: `${origin}${route}`,
    apiKey: API_KEY,
    // The connect checks only with the working endpoint: the broken ones time the claim probes.
    ...(route === ROUTE ? { connect: { url: `${origin}/connect`, secret: CONNECT_SECRET } } : {}),
  });
  const wallMs = performance.now() - started;
  const counts = {};
  for (const check of report.checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  runs.push({
    wallMs,
    checks: report.checks.length,
    ok: report.summary.ok,
    counts,
    failed: report.checks
      .filter((check) => check.status === 'fail')
      .map(
        (check) => `${check.id}: ${check.findings.map((finding) => finding.message).join('; ')}`,
      ),
    slowest: [...report.checks]
      .sort((a, b) => b.durationMs - a.durationMs)
      .slice(0, 3)
      .map((check) => ({ id: check.id, durationMs: Math.round(check.durationMs) })),
  });
}
process.stdout.write(`${JSON.stringify({ runs })}\n`);
