// Checks every published package as it would be published: packs them once (scripts/pack-all.mjs)
// and checks each tarball for its size budget (scripts/size-budgets.json), no source maps, its
// LICENSE, publint --strict, and arethetypeswrong's node16 profile (every resolution but node10);
// for @questkit/core also the smallest verifier a Worker bundles from it (scripts/verifier-bundle.mjs),
// against its own budget: the size a user ships.
// One process for all of them, so TypeScript is loaded once, not once per package.
//
// Usage: node scripts/check-packages.mjs   (part of `pnpm lint`, after `pnpm build`)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { problemKindInfo } from '@arethetypeswrong/core/problems';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { bundleMinimalVerifier } from './verifier-bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const budgets = JSON.parse(readFileSync(join(root, 'scripts/size-budgets.json'), 'utf8'));
// The node16 profile of the attw CLI: node10 resolution is past, it cannot read `exports`.
const IGNORED_RESOLUTIONS = ['node10'];
const VERIFIER_BUNDLE = '@questkit/core: minimal Workers verifier, minified';

const out = mkdtempSync(join(tmpdir(), 'questkit-check-packages-'));
const problems = [];
const rows = [];
try {
  execFileSync(process.execPath, [join(root, 'scripts/pack-all.mjs'), '--skip-build', out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const files = readdirSync(out).filter((name) => name.endsWith('.tgz'));
  for (const file of files.sort()) {
    const tarball = readFileSync(join(out, file));
    const pkg = createPackageFromTarballData(new Uint8Array(tarball));
    const name = pkg.packageName;
    const found = [
      ...checkSize(name, tarball.length, pkg),
      ...(await checkPublint(tarball)),
      ...(await checkTypes(pkg)),
    ];
    problems.push(...found.map((problem) => `${name}: ${problem}`));
    rows.push(`${name.padEnd(26)} ${sizeRow(name, tarball.length)} ${found.length ? '✗' : '✓'}`);
    if (name === '@questkit/core') {
      const bundle = await checkVerifierBundle(join(out, file));
      problems.push(...bundle.found.map((problem) => `${name}: ${problem}`));
      rows.push(
        `${'  its Workers verifier'.padEnd(26)} ${bundle.row} ${bundle.found.length ? '✗' : '✓'}`,
      );
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

console.log(rows.join('\n'));
if (problems.length > 0) {
  console.error(`\nPackage check failed:\n- ${problems.join('\n- ')}`);
  console.error('attw draws its full table with: npx attw --pack packages/<dir> --profile node16');
  process.exit(1);
}

function sizeRow(name, bytes) {
  return `${(bytes / 1024).toFixed(1).padStart(6)} KiB / ${budgets[name] ?? '?'} KiB`;
}

/** The minimal Workers verifier bundled from core's tarball, minified, within its budget. */
async function checkVerifierBundle(tarball) {
  const { bytes, gzipBytes } = await bundleMinimalVerifier(tarball);
  const budget = budgets[VERIFIER_BUNDLE];
  const kib = bytes / 1024;
  const row = `${kib.toFixed(1).padStart(6)} KiB / ${budget} KiB (${(gzipBytes / 1024).toFixed(1)} KiB gzipped)`;
  const found = [];
  if (kib > budget) {
    found.push(
      `the minimal Workers verifier bundles to ${kib.toFixed(1)} KiB, over its ${budget} KiB budget (node scripts/verifier-bundle.mjs shows what each file adds)`,
    );
  }
  return { row, found };
}

/** The size budget, no source maps, and the LICENSE. */
function checkSize(name, bytes, pkg) {
  const found = [];
  const kib = bytes / 1024;
  const budget = budgets[name];
  if (budget === undefined) found.push('no budget in scripts/size-budgets.json');
  else if (kib > budget) found.push(`${kib.toFixed(1)} KiB, over its ${budget} KiB budget`);
  const prefix = `/node_modules/${name}/`;
  const files = pkg.listFiles().map((path) => path.slice(prefix.length));
  const maps = files.filter((path) => path.endsWith('.map'));
  if (maps.length > 0) found.push(`ships source maps (${maps.join(', ')})`);
  if (!files.includes('LICENSE')) found.push('ships no LICENSE');
  return found;
}

/** publint in strict mode: a warning fails as an error does; suggestions are only shown. */
async function checkPublint(tarball) {
  const data = tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball: data }, strict: true });
  for (const message of messages.filter((each) => each.type === 'suggestion'))
    console.log(`publint suggests: ${formatMessage(message, pkg)}`);
  return messages
    .filter((message) => message.type !== 'suggestion')
    .map((message) => `publint: ${formatMessage(message, pkg, { color: false })}`);
}

/** arethetypeswrong: every problem but those of an ignored resolution. */
async function checkTypes(pkg) {
  const result = await checkPackage(pkg);
  if (!result.types) return ['attw: the package ships no types'];
  return result.problems
    .filter((problem) => !IGNORED_RESOLUTIONS.includes(problem.resolutionKind))
    .map((problem) => {
      const where = [problem.entrypoint, problem.resolutionKind].filter(Boolean).join(', ');
      return `attw: ${problemKindInfo[problem.kind].title}${where ? ` (${where})` : ''}`;
    });
}
