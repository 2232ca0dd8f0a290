#!/usr/bin/env node
/**
 * `pnpm bench`: every benchmark of questkit, side by side in one run. See README.md.
 *
 *   node run.mjs [--quick] [--only endpoint:node,micro,...] [--duration s] [--warmup s]
 *                [--rounds n] [--endpoint-rounds n] [--connections n] [--micro-budget ms]
 *                [--out dir] [--name base] [--profile] [--node 20|22|24|26|all]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { currentLoadAverage, describeMachine } from './lib/machine.mjs';
import { stopLoadWorker } from './lib/proc.mjs';
import { renderReport } from './lib/report.mjs';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

const PRESETS = {
  full: {
    duration: 10,
    warmup: 3,
    rounds: 3,
    // The endpoint pairs sit near their target: five rounds make their medians steadier on a
    // noisy machine (a round here swings by several percent).
    endpointRounds: 5,
    connections: 50,
    microBudgetMs: 500,
    mockDuration: 10,
  },
  // Quick is a smoke test: it proves every benchmark still runs, in under two minutes.
  quick: {
    duration: 0.5,
    warmup: 0.2,
    rounds: 3,
    endpointRounds: 3,
    connections: 50,
    microBudgetMs: 20,
    mockDuration: 0.3,
  },
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    duration: { type: 'string' },
    warmup: { type: 'string' },
    rounds: { type: 'string' },
    'endpoint-rounds': { type: 'string' },
    connections: { type: 'string' },
    'micro-budget': { type: 'string' },
    out: { type: 'string' },
    name: { type: 'string' },
    profile: { type: 'boolean', default: false },
    node: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: node run.mjs [--quick] [--only endpoint[:node|express5|express4|fastify|hono],inprocess[:<same ids>],micro[:case],mock[:route],conformance,client]\n' +
      '                    [--duration s] [--warmup s] [--rounds n] [--endpoint-rounds n] [--connections n]\n' +
      '                    [--micro-budget ms] [--out dir] [--name base] [--profile] [--node 20|22|24|26|all]',
  );
  process.exit(0);
}

if (values.node !== undefined) process.exit(runOnEachNode(values.node));

const mode = values.quick ? 'quick' : 'full';
const preset = PRESETS[mode];
const options = {
  duration: positive('duration', values.duration, preset.duration),
  warmup: positive('warmup', values.warmup, preset.warmup),
  rounds: roundCount(positive('rounds', values.rounds, preset.rounds)),
  endpointRounds: roundCount(
    positive(
      'endpoint-rounds',
      values['endpoint-rounds'],
      positive('rounds', values.rounds, preset.endpointRounds),
    ),
  ),
  connections: Math.round(positive('connections', values.connections, preset.connections)),
  microBudgetMs: positive('micro-budget', values['micro-budget'], preset.microBudgetMs),
};
// The mock has eleven routes to load: in the quick mode they get shorter rounds.
options.mockDuration = values.duration === undefined ? preset.mockDuration : options.duration;
const outDir = resolve(values.out ?? join(BENCH_DIR, 'results'));
const baseName = values.name ?? (mode === 'full' ? 'latest' : 'quick');
const only = values.only
  ? values.only
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
  : null;

/** True when `id` (`section` or `section:item`) is selected by --only (everything without it). */
function select(id) {
  if (!only) return true;
  return only.some(
    (entry) => id === entry || id.startsWith(`${entry}:`) || entry.startsWith(`${id}:`),
  );
}

/** A count of rounds: whole, and at least three, so that a median means something. */
function roundCount(value) {
  return Math.max(3, Math.round(value));
}

function positive(name, raw, fallback) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number`);
    process.exit(2);
  }
  return value;
}

function log(line) {
  process.stderr.write(`${line}\n`);
}

ensureBuilt();

const { runEndpointSuite } = await import('./suites/endpoints.mjs');
const { runMicroSuite } = await import('./suites/micro.mjs');
const { runMockSuite } = await import('./suites/mock.mjs');
const { runConformanceSuite } = await import('./suites/conformance.mjs');
const { runClientSuite } = await import('./suites/client.mjs');
const { runInProcessSuite } = await import('./suites/inprocess.mjs');

const startedAt = Date.now();
const results = {
  mode,
  date: new Date(startedAt).toISOString(),
  machine: describeMachine(),
  options,
};
const profileDir = values.profile ? outDir : undefined;
const suiteOptions = { ...options, select, log, profileDir };

results.suiteSeconds = {};
const suites = [
  ['micro', 'micro-benchmarks', runMicroSuite],
  ['endpoint', 'endpoint overhead', runEndpointSuite],
  ['inprocess', 'endpoint overhead in process', runInProcessSuite],
  ['mock', 'mock platform', runMockSuite],
  ['conformance', 'conformance runner', runConformanceSuite],
  ['client', '@questkit/client', runClientSuite],
];
for (const [id, label, run] of suites) {
  if (!select(id)) continue;
  log(label);
  const suiteStarted = Date.now();
  results[id] = await guard(label, () => run(suiteOptions));
  results.suiteSeconds[id] = Math.round((Date.now() - suiteStarted) / 100) / 10;
}
await stopLoadWorker();
results.loadAverageAtEnd = currentLoadAverage();
results.wallSeconds = Math.round((Date.now() - startedAt) / 100) / 10;

const report = renderReport(results);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${baseName}.json`), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(outDir, `${baseName}.md`), report);
process.stdout.write(`\n${report}`);
log(`\nwrote ${join(outDir, `${baseName}.json`)} and ${baseName}.md`);

/** A suite that breaks is reported as not available with its error, and the run goes on. */
async function guard(label, run) {
  try {
    return await run();
  } catch (error) {
    const reason = `failed: ${String(error?.message ?? error).split('\n', 1)[0]}`;
    log(`  ${label}: ${reason}`);
    return { available: false, reason };
  }
}

/**
 * A fresh clone has no dist/ yet: build the workspace packages the bench imports (through the
 * pnpm that runs this script), or say how to.
 */
function ensureBuilt() {
  const require = createRequire(import.meta.url);
  const coreEntry = join(
    dirname(require.resolve('@questkit/core/package.json')),
    'dist',
    'index.js',
  );
  if (existsSync(coreEntry)) return;
  const pnpm = process.env.npm_execpath;
  if (!pnpm) {
    console.error('@questkit/core is not built: run `pnpm build` at the repository root first.');
    process.exit(1);
  }
  log('building the workspace packages the bench uses (no dist/ yet)');
  execFileSync(process.execPath, [pnpm, '--filter', '@questkit/bench^...', 'build'], {
    cwd: BENCH_DIR,
    stdio: 'inherit',
  });
}

/**
 * `--node 24`, `--node 22,24` or `--node all` (20, 22, 24 and 26): the same run again under each Node,
 * one after the other, every process of it (servers, load, workers) on that Node, with the binary
 * CI tests (scripts/node-bin.sh: the machine's 20, the pinned 22, 24 and 26 of npm's `node` package,
 * cached by npx). Each writes `node-<major>.json` and `.md` (`<name>-node-<major>` with --name).
 * Returns the exit status: the first failure's, else 0.
 */
function runOnEachNode(list) {
  const majors =
    list === 'all' ? ['20', '22', '24', '26'] : list.split(',').map((entry) => entry.trim());
  const nodeBin = join(BENCH_DIR, '..', 'scripts', 'node-bin.sh');
  // The arguments of this run, less --node (and its value): the children run in-process.
  const argv = process.argv.slice(2);
  const rest = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--node') index++;
    else if (!argv[index].startsWith('--node=')) rest.push(argv[index]);
  }
  let status = 0;
  for (const major of majors) {
    if (!/^\d+$/.test(major)) {
      console.error(`--node takes majors (20, 22, 24, 26) or all, not ${major}`);
      return 2;
    }
    const found = spawnSync(nodeBin, [major], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (found.status !== 0) return found.status ?? 1;
    const binary = found.stdout.trim();
    const name = values.name ? `${values.name}-node-${major}` : `node-${major}`;
    log(`Node ${major}: ${binary}`);
    const run = spawnSync(binary, [fileURLToPath(import.meta.url), ...rest, '--name', name], {
      stdio: 'inherit',
      // Anything that spawns a bare `node` gets the same one.
      env: { ...process.env, PATH: `${dirname(binary)}:${process.env.PATH}` },
    });
    if (run.status !== 0 && status === 0) status = run.status ?? 1;
  }
  return status;
}
