import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Proves the benchmarks still run and write well-formed results. It asserts nothing about speed:
// machines are noisy, and the speed targets are read from a full `pnpm bench` run.
const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'questkit-bench-smoke-'));

interface Figures {
  requestsPerSecond: number;
  p99Ms: number;
  serverCpuMicrosPerRequest: number;
  peakRssMb: number;
  rounds: unknown[];
}

interface Results {
  mode: string;
  machine: { node: string; cores: number };
  options: { rounds: number };
  endpoint: {
    pairs: {
      id: string;
      available: boolean;
      questkit: Figures;
      handWritten: Figures;
      ratio: { requestsPerSecond: number; perRound: number[] };
    }[];
  };
  inprocess: {
    rounds: number;
    pairs: {
      id: string;
      available: boolean;
      cpuMicrosPerRequest: { questkit: number; handWritten: number };
      cpuRatio: number;
      roundRatios: number[];
    }[];
  };
  micro: {
    cases: {
      id: string;
      opsPerSecond: number;
      reference: { opsPerSecond: number };
      ratio: number;
    }[];
  };
}

function runQuickSubset(): Promise<string> {
  const args = [
    'run.mjs',
    '--quick',
    '--only',
    'endpoint:node,inprocess:fastify,micro:decide-valid,micro:verify-signed-url',
    '--duration',
    '0.5',
    '--warmup',
    '0.3',
    '--micro-budget',
    '5',
    '--out',
    outDir,
    '--name',
    'smoke',
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: BENCH_DIR, timeout: 50_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('pnpm bench --quick', () => {
  it('runs a framework pair, an in-process pair and micro-benchmarks and writes well-formed results', async () => {
    const stdout = await runQuickSubset();
    const jsonFile = join(outDir, 'smoke.json');
    const mdFile = join(outDir, 'smoke.md');
    expect(existsSync(jsonFile)).toBe(true);
    expect(existsSync(mdFile)).toBe(true);

    const results = JSON.parse(readFileSync(jsonFile, 'utf8')) as Results;
    expect(results.mode).toBe('quick');
    expect(results.machine.node).toBe(process.version);
    expect(results.options.rounds).toBeGreaterThanOrEqual(3);

    expect(results.endpoint.pairs).toHaveLength(1);
    const [pair] = results.endpoint.pairs;
    expect(pair?.id).toBe('node');
    expect(pair?.available).toBe(true);
    for (const figures of [pair!.questkit, pair!.handWritten]) {
      expect(figures.requestsPerSecond).toBeGreaterThan(0);
      expect(figures.p99Ms).toBeGreaterThanOrEqual(0);
      expect(figures.serverCpuMicrosPerRequest).toBeGreaterThan(0);
      expect(figures.peakRssMb).toBeGreaterThan(0);
      expect(figures.rounds).toHaveLength(results.options.rounds);
    }
    expect(pair!.ratio.requestsPerSecond).toBeGreaterThan(0);
    expect(pair!.ratio.perRound).toHaveLength(results.options.rounds);

    // The in-process pair answered every request (the worker fails on any other answer).
    expect(results.inprocess.pairs.map((p) => [p.id, p.available])).toEqual([['fastify', true]]);
    const [inProcess] = results.inprocess.pairs;
    expect(inProcess!.cpuMicrosPerRequest.questkit).toBeGreaterThan(0);
    expect(inProcess!.cpuMicrosPerRequest.handWritten).toBeGreaterThan(0);
    expect(inProcess!.roundRatios).toHaveLength(results.inprocess.rounds);

    expect(results.micro.cases.map((c) => c.id)).toEqual(['decide-valid', 'verify-signed-url']);
    for (const benchCase of results.micro.cases) {
      expect(benchCase.opsPerSecond).toBeGreaterThan(0);
      expect(benchCase.reference.opsPerSecond).toBeGreaterThan(0);
      expect(benchCase.ratio).toBeGreaterThan(0);
    }

    const markdown = readFileSync(mdFile, 'utf8');
    expect(markdown).toContain('## 1. Endpoint overhead');
    expect(markdown).toContain('node:http (core verifier.node)');
    expect(markdown).toContain('## 1b. Endpoint overhead in process');
    expect(markdown).toContain('## 2. Core micro-benchmarks');
    // The table printed on stdout is the report written to the file.
    expect(stdout).toContain(markdown.trim());
  }, 60_000);
});
