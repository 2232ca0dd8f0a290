/**
 * Bundles the child-process servers (so they run under plain Node), gives the suites a folder
 * for their result rows, and writes the results table when the run ends: to results/last-run.md,
 * with one line saying so (the test command's last line stays its count), or, with
 * QUESTKIT_RESULTS=latest (set by `pnpm test:reliability`), to results/latest.md, printed too.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { FULL, SEED } from './config.js';
import type { ResultRow } from './report/record.js';
import { renderTable } from './report/table.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled adapter server, run with `node` in a child process. */
    adapterServerBundle: string;
    /** The bundled mock platform server, run the same way. */
    mockServerBundle: string;
    /** The bundled `examples/connect` server (the example itself inlined), run the same way. */
    exampleConnectBundle: string;
    /** Where suites write their result rows. */
    resultsDir: string;
  }
}

const root = dirname(dirname(fileURLToPath(import.meta.url)));

export default async function setup(project: TestProject): Promise<() => void> {
  // Inside node_modules so the bundle resolves its external packages from this package.
  const outdir = join(root, 'node_modules', '.cache', 'reliability-servers');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: {
      'adapter-server': join(root, 'src', 'servers', 'adapter-server.ts'),
      'mock-server': join(root, 'src', 'servers', 'mock-server.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  // The example is a workspace package of TypeScript sources: inlined, so plain Node runs it.
  await build({
    entryPoints: {
      'example-connect-server': join(root, 'src', 'servers', 'example-connect-server.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    external: [
      'hono',
      'hono/*',
      '@hono/node-server',
      '@hono/node-server/*',
      '@questkit/core',
      '@questkit/hono',
    ],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  const resultsDir = mkdtempSync(join(tmpdir(), 'questkit-reliability-'));
  project.provide('adapterServerBundle', join(outdir, 'adapter-server.mjs'));
  project.provide('mockServerBundle', join(outdir, 'mock-server.mjs'));
  project.provide('exampleConnectBundle', join(outdir, 'example-connect-server.mjs'));
  project.provide('resultsDir', resultsDir);
  const started = Date.now();

  return () => {
    const rows = readdirSync(resultsDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as ResultRow);
    rmSync(resultsDir, { recursive: true, force: true });
    if (rows.length === 0) return;
    const seconds = Math.round((Date.now() - started) / 1000);
    const heading = [
      `Reliability run: ${FULL ? 'full counts' : 'reduced (CI) counts'}, seed ${SEED}, ${seconds} s,`,
      `Node ${process.versions.node}, ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}.`,
    ].join(' ');
    const table = `${heading}\n\n${renderTable(rows)}\n`;
    const latest = process.env.QUESTKIT_RESULTS === 'latest';
    const file = join(root, 'results', latest ? 'latest.md' : 'last-run.md');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `# Reliability results\n\n${table}`);
    if (latest) console.log(`\n${table}`);
    else
      console.log(
        `\nreliability: ${rows.length} rows of results in ${relative(process.cwd(), file)}`,
      );
  };
}
