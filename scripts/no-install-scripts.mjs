// Fails when installing a published package would run an install script: the package itself or
// anything in its production dependency tree (dependencies, optional and peer dependencies,
// resolved as Node resolves them from the installed node_modules) declaring a preinstall,
// install or postinstall script, or a binding.gyp that npm builds by default. npm runs these for
// whoever installs the package (a telemetry postinstall once came in through the docs page).
//
// Usage: node scripts/no-install-scripts.mjs   (part of `pnpm lint`)
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The directory of `name` as Node would find it from `fromDir`, or undefined. */
function resolvePackage(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** What would run on install of the package at `dir`: script names, or a native build. */
function installWork(dir, manifest) {
  const work = INSTALL_SCRIPTS.filter((name) => manifest.scripts?.[name]);
  if (work.length === 0 && existsSync(join(dir, 'binding.gyp'))) work.push('binding.gyp');
  return work;
}

const published = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: readJson(join(dir, 'package.json')) }))
  .filter(({ manifest }) => manifest.private !== true);

const problems = [];
let visited = 0;
for (const { dir, manifest } of published) {
  const seen = new Set();
  // Each entry: the package directory and the chain of names that led to it.
  const queue = [{ dir: realpathSync(dir), chain: [manifest.name] }];
  while (queue.length > 0 && seen.size < 10_000) {
    const { dir: current, chain } = queue.shift();
    if (seen.has(current)) continue;
    seen.add(current);
    const own = readJson(join(current, 'package.json'));
    const work = installWork(current, own);
    if (work.length > 0) problems.push(`${chain.join(' > ')}: ${work.join(', ')}`);
    const optionalPeers = new Set(
      Object.entries(own.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta?.optional)
        .map(([name]) => name),
    );
    const names = new Set([
      ...Object.keys(own.dependencies ?? {}),
      ...Object.keys(own.optionalDependencies ?? {}),
      ...Object.keys(own.peerDependencies ?? {}).filter((name) => !optionalPeers.has(name)),
    ]);
    for (const name of names) {
      const found = resolvePackage(name, current);
      // An optional dependency for another platform is not installed here; a missing required
      // one would fail the build long before this check.
      if (found) queue.push({ dir: found, chain: [...chain, name] });
    }
  }
  visited += seen.size;
}

if (problems.length > 0) {
  console.error('Install scripts in the dependency tree of a published package:');
  for (const problem of problems) console.error(`  ${problem}`);
  console.error('Replace the dependency, or move it to devDependencies if only the tests need it.');
  process.exit(1);
}
console.log(
  `no-install-scripts: ${published.length} published packages, ${visited} installed packages checked, none runs an install script`,
);
