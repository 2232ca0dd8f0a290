// `pnpm pack:all [dir]`: packs every publishable package (`packages/*`) into one folder (default
// `packed/`), as it would be published, and prints the one `npm install` line that installs the
// tarballs together into another app. Together matters: npm finds `@questkit/core` among the
// tarballs only when it is named on the same command line, else it asks the registry for it.
// `--skip-build` packs the `dist/` already built (the tests run after `pnpm build`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const skipBuild = args.includes('--skip-build');
const unknown = args.filter((arg) => arg.startsWith('-') && arg !== '--skip-build');
if (unknown.length > 0 || args.filter((arg) => !arg.startsWith('-')).length > 1) {
  process.stderr.write('Usage: pnpm pack:all [--skip-build] [dir]   (dir defaults to packed/)\n');
  process.exit(2);
}
const out = resolve(args.find((arg) => !arg.startsWith('-')) ?? join(root, 'packed'));

mkdirSync(out, { recursive: true });
// Tarballs of an older version would be installed beside the new ones.
for (const file of readdirSync(out, { withFileTypes: true }).filter(isTarball))
  rmSync(join(out, file.name));
// The package manager pinned in package.json, reached as CONTRIBUTING says: through npx.
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pnpm = `pnpm@${packageManager.split('@')[1]}`;
execFileSync(
  'npx',
  [
    '--yes',
    pnpm,
    '-r',
    '--filter',
    './packages/**',
    'pack',
    ...(skipBuild ? ['--config.ignore-scripts=true'] : []),
    '--pack-destination',
    out,
  ],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
const tarballs = readdirSync(out, { withFileTypes: true }).filter(isTarball);
const near = relative(process.cwd(), out);
const shown = near === '' ? '.' : near.startsWith('..') ? out : near;
process.stdout.write(
  `Packed ${tarballs.length} packages into ${shown}/\nInstall them together into an app (with its framework):\n  npm install ${out}/questkit*.tgz express\n`,
);

function isTarball(entry) {
  return entry.isFile() && entry.name.endsWith('.tgz');
}
