// `node scripts/build-stale.mjs`: builds only the packages (`packages/*`) whose `dist/` is missing
// or older than what it is built from, and the packages that depend on them, in one `pnpm build`
// (pnpm orders them). What a package is built from: its files that git tracks or would track (so
// .gitignore'd output never counts), every package's package.json (versions and exports that
// builds read), tsconfig.base.json and pnpm-lock.yaml. Without git, everything is built.
// `--dry-run` prints what would be built. The demo runs it; the tests build everything.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--dry-run')) {
  process.stderr.write('Usage: node scripts/build-stale.mjs [--dry-run]\n');
  process.exit(2);
}
const dryRun = args.includes('--dry-run');

const packages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const dir = join(root, 'packages', entry.name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    return { dir, manifest, name: manifest.name };
  })
  .filter(({ manifest }) => manifest.scripts?.build);

const sharedInputs = [
  'tsconfig.base.json',
  'pnpm-lock.yaml',
  ...packages.map(({ dir }) => relative(root, join(dir, 'package.json'))),
];

/** The newest modification time among the files a package is built from; Infinity without git. */
function newestInput(dir) {
  let files;
  try {
    const listed = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', relative(root, dir)],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    files = listed.split('\0').filter(Boolean);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  let newest = 0;
  for (const file of [...files, ...sharedInputs]) {
    const time = mtime(join(root, file));
    if (time !== undefined && time > newest) newest = time;
  }
  return newest;
}

/** The oldest modification time in dist/ (a build rewrites all of it); 0 when there is none. */
function oldestOutput(dir) {
  let oldest = Number.POSITIVE_INFINITY;
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else oldest = Math.min(oldest, mtime(path) ?? 0);
    }
  };
  try {
    walk(join(dir, 'dist'));
  } catch {
    return 0;
  }
  return oldest === Number.POSITIVE_INFINITY ? 0 : oldest;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined; // a tracked file deleted in the work tree
  }
}

const workspaceDeps = (manifest) =>
  Object.keys({
    ...manifest.dependencies,
    ...manifest.devDependencies,
    ...manifest.peerDependencies,
  }).filter((dep) => packages.some(({ name }) => name === dep));

const stale = new Set(
  packages.filter(({ dir }) => oldestOutput(dir) < newestInput(dir)).map(({ name }) => name),
);
// A package built from a rebuilt one is rebuilt too (its types and bundled code may come from it).
for (let grew = true, rounds = 0; grew && rounds <= packages.length; rounds++) {
  grew = false;
  for (const { name, manifest } of packages) {
    if (!stale.has(name) && workspaceDeps(manifest).some((dep) => stale.has(dep))) {
      stale.add(name);
      grew = true;
    }
  }
}

if (stale.size === 0) {
  process.stdout.write('Every package is built and up to date.\n');
  process.exit(0);
}
const names = [...stale].sort();
process.stdout.write(
  `Building ${names.length} of ${packages.length} packages: ${names.join(', ')}\n`,
);
if (dryRun) process.exit(0);
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const filters = names.flatMap((name) => ['--filter', name]);
try {
  execFileSync('npx', ['--yes', packageManager, '-r', ...filters, 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
} catch (error) {
  process.exit(typeof error.status === 'number' && error.status !== 0 ? error.status : 1);
}
