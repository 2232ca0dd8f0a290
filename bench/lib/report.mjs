/** Turns a results object into the Markdown report (stdout and results/latest.md alike). */
import { num, ratioText, table } from './table.mjs';

/** The whole report. */
export function renderReport(results) {
  const parts = [`# questkit benchmarks (${results.mode})`, renderMachine(results)];
  if (results.endpoint) parts.push(renderEndpoint(results.endpoint));
  if (results.inprocess) parts.push(renderInProcess(results.inprocess));
  if (results.micro) parts.push(renderMicro(results.micro));
  if (results.mock) parts.push(renderMock(results.mock));
  if (results.conformance) parts.push(renderConformance(results.conformance));
  if (results.client) parts.push(renderClient(results.client));
  return `${parts.join('\n\n')}\n`;
}

function renderMachine(results) {
  const m = results.machine;
  const o = results.options;
  return [
    `- date: ${results.date}; commit: ${m.gitCommit ?? 'unknown'}; wall time: ${num(results.wallSeconds)} s (${Object.entries(
      results.suiteSeconds ?? {},
    )
      .map(([suite, seconds]) => `${suite} ${num(seconds)} s`)
      .join(', ')})`,
    `- machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGb} GB, ${m.os}`,
    `- Node ${m.node} (V8 ${m.v8}); ${m.pinning}`,
    `- load average (1/5/15 min) at start ${m.loadAverageAtStart.join(' / ')}, at end ${results.loadAverageAtEnd.join(' / ')}`,
    `- versions: ${Object.entries(m.versions)
      .map(([name, version]) => `${name} ${version ?? 'n/a'}`)
      .join(', ')}`,
    `- settings: autocannon ${o.connections} connections, ${o.duration} s per round (mock routes ${o.mockDuration} s), ${o.warmup} s warm-up (discarded), ${o.endpointRounds ?? o.rounds} rounds interleaved A B, B A for the endpoint pairs (each round on a fresh pair of processes, warmed up) and ${o.rounds} for the mock's routes, medians; mitata ${o.microBudgetMs} ms per case per round`,
  ].join('\n');
}

function unavailable(label, reason) {
  return `- ${label}: **not available**: ${reason}`;
}

function renderEndpoint(endpoint) {
  const lines = [
    '## 1. Endpoint overhead: questkit vs hand-written, same framework',
    '',
    `POST claim (five fields) with x-api-key, answered 200 \`{message}\`. Floor: req/s ratio questkit / hand-written >= ${endpoint.target}.`,
  ];
  const available = endpoint.pairs.filter((pair) => pair.available);
  if (available.length > 0) {
    lines.push(
      '',
      table(
        [
          'Framework',
          'Variant',
          'req/s',
          'p50 ms',
          'p99 ms',
          'avg ms',
          'server CPU µs/req',
          'peak RSS MB',
        ],
        available.flatMap((pair) =>
          [
            ['questkit', pair.questkit],
            ['hand-written', pair.handWritten],
          ].map(([variant, figures]) => [
            pair.label,
            variant,
            num(figures.requestsPerSecond),
            num(figures.p50Ms, 0),
            num(figures.p99Ms, 0),
            num(figures.avgMs, 2),
            num(figures.serverCpuMicrosPerRequest, 1),
            num(figures.peakRssMb, 1),
          ]),
        ),
      ),
      '',
      table(
        [
          'Framework',
          'req/s ratio (median of rounds)',
          `>= ${endpoint.target}`,
          'ratio of medians',
          'per-round req/s ratios',
          'p50 ratio',
          'p99 ratio',
          'CPU/req ratio',
          'RSS ratio',
        ],
        available.map((pair) => [
          pair.label,
          ratioText(pair.ratio.requestsPerSecond),
          pair.meetsTarget ? 'yes' : '**NO**',
          ratioText(pair.ratio.requestsPerSecondOfMedians),
          pair.ratio.perRound.map(ratioText).join(' '),
          ratioText(pair.ratio.p50Ms),
          ratioText(pair.ratio.p99Ms),
          ratioText(pair.ratio.serverCpuPerRequest),
          ratioText(pair.ratio.peakRss),
        ]),
      ),
      '',
      'Ratios are questkit / hand-written: above 1 is better for req/s, worse for latency, CPU and RSS. The req/s ratio that keeps the floor or not is the median of the per-round ratios (each round runs both sides back to back on a fresh pair of processes); the other ratios are of the medians. autocannon reports latency in whole milliseconds. "server CPU µs/req" is the server process\'s CPU time over the requests it answered, which stays meaningful even when the load generator sets the pace.',
    );
    const failed = available.filter((pair) => !pair.valid);
    for (const pair of failed) {
      lines.push(
        `- ${pair.label}: some requests failed under load (questkit ${pair.questkit.failedRequests}, hand-written ${pair.handWritten.failedRequests}); treat its figures with care.`,
      );
    }
  }
  for (const pair of available.filter((candidate) => candidate.profile)) {
    const busy = pair.profile.busyMicrosPerRequest;
    lines.push(
      '',
      `### Profile: ${pair.label} (busy ${num(busy.questkit, 1)} µs/req questkit, ${num(busy.handWritten, 1)} µs/req hand-written; self time per request, largest differences)`,
      '',
      table(
        ['Frame', 'questkit µs/req', 'hand-written µs/req', 'difference'],
        pair.profile.frames.map((frame) => [
          frame.frame,
          num(frame.questkit, 2),
          num(frame.handWritten, 2),
          num(frame.difference, 2),
        ]),
      ),
    );
  }
  const missing = endpoint.pairs.filter((pair) => !pair.available);
  if (missing.length > 0)
    lines.push('', ...missing.map((pair) => unavailable(pair.label, pair.reason)));
  return lines.join('\n');
}

function renderMicro(micro) {
  if (micro.available === false)
    return `## 2. Core micro-benchmarks\n\n${unavailable('micro-benchmarks', micro.reason)}`;
  return [
    '## 2. Core micro-benchmarks (mitata)',
    '',
    table(
      [
        'Case',
        'questkit ops/s',
        'ns/op',
        'Reference (same work)',
        'ref ops/s',
        'ref ns/op',
        'ratio',
      ],
      micro.cases.map((c) => [
        c.name,
        num(c.opsPerSecond),
        num(c.nsPerOp, 0),
        c.reference.name,
        num(c.reference.opsPerSecond),
        num(c.reference.nsPerOp, 0),
        ratioText(c.ratio),
      ]),
    ),
    '',
    'ratio = questkit ops/s / reference ops/s (below 1: questkit is slower). Every reference is checked to give the same answers as core before it is timed.',
  ].join('\n');
}

function renderMock(mock) {
  const lines = ['## 3. Mock platform'];
  if (mock.available === false) {
    lines.push('', unavailable('mock platform', mock.reason));
    return lines.join('\n');
  }
  lines.push(
    '',
    `${num(mock.seededUsers)} seeded users (seeding took ${num(mock.seedSeconds, 1)} s); lists filled to ${mock.filled.webhooks} webhooks and ${mock.filled.quests} quests; ${num(mock.distinctPathsPerRoute)} different members per user route; ${mock.durationSeconds} s per round. Every route against the mock's cheapest route (${mock.baseline}) in the same run, interleaved; all with the demo read-write API key, rate limit off.`,
    '',
    table(
      ['Route', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'req/s vs cheapest', 'non-2xx'],
      mock.routes.map((route) => [
        route.label,
        num(route.requestsPerSecond),
        num(route.p50Ms),
        num(route.p99Ms),
        num(route.serverCpuMicrosPerRequest, 1),
        ratioText(route.ratioToBaseline),
        num(route.failedRequests),
      ]),
    ),
    '',
    `Peak RSS of the mock process: ${num(mock.peakRssMb, 1)} MB (after seeding: ${num(mock.rssAfterSeedMb, 1)} MB).`,
  );
  if (mock.claims) {
    if (mock.claims.available === false)
      lines.push('', unavailable('claims per second', mock.claims.reason));
    else {
      lines.push(
        '',
        table(
          [
            'Claims against an instant endpoint',
            'claims/s',
            'p50 ms',
            'p99 ms',
            'mock CPU µs/claim',
            'non-2xx',
          ],
          [
            [
              mock.claims.label,
              num(mock.claims.requestsPerSecond),
              num(mock.claims.p50Ms),
              num(mock.claims.p99Ms),
              num(mock.claims.serverCpuMicrosPerClaim, 1),
              num(mock.claims.failedRequests),
            ],
          ],
        ),
      );
    }
  }
  for (const skipped of mock.skipped ?? [])
    lines.push('', unavailable(skipped.label, skipped.reason));
  return lines.join('\n');
}

function renderConformance(conformance) {
  const lines = ['## 4. Conformance runner'];
  if (conformance.available === false) {
    lines.push('', unavailable('conformance runner', conformance.reason));
    return lines.join('\n');
  }
  lines.push(
    '',
    table(
      ['Target', 'probes', 'wall time ms (median)', 'rounds ms', 'passed'],
      [
        [
          conformance.target,
          num(conformance.probes),
          num(conformance.wallMs, 0),
          conformance.rounds.map((value) => num(value, 0)).join(' '),
          conformance.passed ? 'yes' : 'no',
        ],
        ...(conformance.broken ?? []).map((run) => [
          run.target,
          num(run.probes),
          num(run.wallMs, 0),
          num(run.wallMs, 0),
          run.failed ? 'no (as it should)' : 'yes (wrong)',
        ]),
      ],
    ),
    '',
    `Slowest checks of the last round: ${conformance.slowest
      .map((check) => `${check.id} ${num(check.durationMs)} ms`)
      .join(', ')}.`,
  );
  for (const failure of conformance.failed ?? []) lines.push(`- failed: ${failure}`);
  return lines.join('\n');
}

function renderInProcess(inprocess) {
  const lines = ['## 1b. Endpoint overhead in process: CPU a request, no kernel'];
  if (inprocess.available === false) {
    lines.push('', unavailable('in-process pairs', inprocess.reason));
    return lines.join('\n');
  }
  lines.push(
    '',
    `The same pairs, each in one process over Node's own HTTP stack on in-memory sockets (50 connections), ${num(inprocess.requestsPerRound, 0)} requests a variant a round, ${inprocess.rounds} rounds alternating, medians. Without the socket I/O the ratio is stricter than section 1's and moves less between runs. Floor: CPU/req ratio questkit / hand-written <= ${inprocess.ceiling}.`,
    '',
    table(
      [
        'Framework',
        'questkit CPU µs/req',
        'hand-written CPU µs/req',
        'CPU/req ratio',
        `<= ${inprocess.ceiling}`,
        'per-round ratios',
      ],
      inprocess.pairs.map((pair) =>
        pair.available === false
          ? [pair.label, 'n/a', 'n/a', 'n/a', 'n/a', pair.reason]
          : [
              pair.label,
              num(pair.cpuMicrosPerRequest.questkit, 2),
              num(pair.cpuMicrosPerRequest.handWritten, 2),
              ratioText(pair.cpuRatio),
              pair.meetsFloor ? 'yes' : '**NO**',
              pair.roundRatios.map((value) => num(value, 2)).join(' '),
            ],
      ),
    ),
  );
  return lines.join('\n');
}

function renderClient(client) {
  const lines = ['## 5. @questkit/client'];
  if (client.available === false) {
    lines.push('', unavailable('@questkit/client', client.reason));
    return lines.join('\n');
  }
  const row = (label, figures, ratioValue) => [
    label,
    num(figures.callsPerSecond, 0),
    num(figures.clientCpuMicrosPerCall, 1),
    ratioValue === undefined ? '1.00' : ratioText(ratioValue),
    figures.rounds.map((value) => num(value, 0)).join(' '),
  ];
  lines.push(
    '',
    `${client.route} on the mock (its own process), 8 calls in flight from a worker on the load core; the variants interleaved in each round. Target: client / bare fetch with the same timeout >= 0.90.`,
    '',
    table(
      ['Caller', 'calls/s', 'caller CPU µs/call', 'vs bare fetch', 'rounds calls/s'],
      [
        row('bare fetch + response.json()', client.bare),
        row(
          'bare fetch with AbortSignal.timeout',
          client.bareWithTimeout,
          client.bareWithTimeout.callsPerSecond / client.bare.callsPerSecond,
        ),
        row('client.getUser (answer validated)', client.client, client.ratio),
        row('client.getUser (validate: false)', client.noValidate, client.ratioNoValidate),
      ],
    ),
    '',
    `Client against the bare call with the same timeout signal: ${ratioText(client.ratioSameTimeout)}.`,
  );
  return lines.join('\n');
}
