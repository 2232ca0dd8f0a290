// Fails when a published package's version range admits a version of a dependency that has a
// public advisory: a user installing the lowest version our range allows would get it. The
// examples and create-questkit's templates (the projects users start from) are held to the same. The
// advisories are the package manager's (`pnpm audit --json`), asked about the lowest version
// of each range alternative and the version installed here, in a throw-away project.
//
// The audit needs the registry. When it cannot run (offline, a registry without the audit
// endpoint), the check says NOT CHECKED on stderr and exits 0, unless QUESTKIT_REQUIRE_AUDIT=1
// (the release script sets it): then it fails. It never reports an unchecked run as checked.
//
// Usage: node scripts/advised-ranges.mjs                    (part of `pnpm lint`)
//        node scripts/advised-ranges.mjs --audit-json <file> (judge a saved `pnpm audit --json`)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  admittedAdvisories,
  advisoriesOf,
  floorVersions,
  projectRanges,
  publishedRanges,
  verdict,
} from './advised-ranges-lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const packageDirs = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')));
const manifests = packageDirs.map((dir) => ({
  dir,
  manifest: readJson(join(dir, 'package.json')),
}));
/** Each example and template folder with a package.json, labelled by its path. */
const projects = ['examples', 'packages/create-questkit/templates'].flatMap((parent) =>
  readdirSync(join(root, parent))
    .filter((name) => existsSync(join(root, parent, name, 'package.json')))
    .map((name) => ({
      label: `${parent}/${name}`,
      dir: join(root, parent, name),
      manifest: readJson(join(root, parent, name, 'package.json')),
    })),
);
const ranges = [
  ...publishedRanges(manifests.map(({ manifest }) => manifest)),
  ...projectRanges(projects),
];

/** The version of `dep` installed for the package at `dir`, if any. */
function installedVersion(dep, dir) {
  try {
    return readJson(createRequire(join(dir, 'package.json')).resolve(`${dep}/package.json`))
      .version;
  } catch {
    return undefined;
  }
}

/** Runs pnpm (the one running `pnpm lint`, else the repository's pinned one) in `cwd`. */
function pnpm(args, cwd) {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath && /pnpm/.test(execPath)
      ? [process.execPath, [execPath]]
      : ['npx', ['--yes', readJson(join(root, 'package.json')).packageManager]];
  return spawnSync(command, [...prefix, ...args], { cwd, encoding: 'utf8', timeout: 180_000 });
}

function runAudit() {
  const versions = new Map();
  for (const { pkg, dep, range } of ranges) {
    const set = versions.get(dep) ?? new Set();
    for (const version of floorVersions(range)) set.add(version);
    const dir = [
      ...manifests.map(({ dir, manifest }) => ({ dir, label: manifest.name })),
      ...projects,
    ].find(({ label }) => label === pkg)?.dir;
    const installed = dir && installedVersion(dep, dir);
    if (installed) set.add(installed);
    versions.set(dep, set);
  }
  // The first version of a dependency under its own name, the others under aliases.
  const dependencies = {};
  let alias = 0;
  for (const [dep, set] of versions) {
    for (const [index, version] of [...set].entries()) {
      if (index === 0) dependencies[dep] = version;
      else dependencies[`questkit-audit-${alias++}`] = `npm:${dep}@${version}`;
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'questkit-advised-'));
  try {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'questkit-advised-ranges', private: true, dependencies }),
    );
    const install = pnpm(
      ['install', '--lockfile-only', '--ignore-scripts', '--config.auto-install-peers=false'],
      dir,
    );
    if (install.status !== 0) {
      return { error: `pnpm install --lockfile-only failed: ${lastLine(install)}` };
    }
    const audit = pnpm(['audit', '--json'], dir);
    let report;
    try {
      report = JSON.parse(audit.stdout);
    } catch {
      return { error: `pnpm audit answered no JSON: ${lastLine(audit)}` };
    }
    if (report.error) return { error: `${report.error.code}: ${report.error.message}` };
    return { report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function lastLine(result) {
  const text = `${result.error?.message ?? ''}\n${result.stderr ?? ''}\n${result.stdout ?? ''}`;
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? `exit ${result.status}`
  );
}

const savedIndex = process.argv.indexOf('--audit-json');
const { report, error } =
  savedIndex > 0 ? { report: readJson(process.argv[savedIndex + 1]) } : runAudit();
let auditError = error;
let problems = [];
if (report) {
  try {
    problems = admittedAdvisories(ranges, advisoriesOf(report));
  } catch (failure) {
    auditError = failure.message;
  }
}
const result = verdict({
  problems,
  auditError,
  required: process.env.QUESTKIT_REQUIRE_AUDIT === '1',
  checked: ranges.length,
});
const out = result.code === 0 && !auditError ? process.stdout : process.stderr;
out.write(`${result.lines.join('\n')}\n`);
process.exit(result.code);
