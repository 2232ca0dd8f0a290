// `prepack` of every published package: build it, so a tarball never ships a stale or
// half-written `dist/` (a pack during a rebuild once shipped core without its declarations).
// Its workspace dependencies are built first when their `dist/` is missing, so `pnpm pack` of
// one package works in a clean checkout; `pnpm -r pack` packs in dependency order, so there
// they are already built and nothing is built twice.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = fileURLToPath(new URL('../packages/', import.meta.url));
const dirByName = new Map();
for (const dir of readdirSync(packages)) {
  const manifestPath = join(packages, dir, 'package.json');
  if (existsSync(manifestPath))
    dirByName.set(JSON.parse(readFileSync(manifestPath, 'utf8')).name, join(packages, dir));
}

function manifestOf(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** True when every file the manifest points at (main, module, types) is there. */
function built(dir) {
  const manifest = manifestOf(dir);
  const files = [manifest.main, manifest.module, manifest.types].filter(Boolean);
  return files.length > 0 && files.every((file) => existsSync(join(dir, file)));
}

function build(dir) {
  execFileSync('tsup', [], { cwd: dir, stdio: 'inherit' });
}

/** Builds the workspace dependencies of `dir` that are not built, deepest first (at most 8 deep). */
function buildMissingDependencies(dir, depth = 0) {
  if (depth > 8) throw new Error('prepack: workspace dependencies nest deeper than 8');
  const manifest = manifestOf(dir);
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  for (const name of names) {
    const depDir = dirByName.get(name);
    if (!depDir || built(depDir)) continue;
    buildMissingDependencies(depDir, depth + 1);
    build(depDir);
  }
}

buildMissingDependencies(process.cwd());
build(process.cwd());
