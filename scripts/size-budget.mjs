// Checks every published package's tarball against its budget in size-budgets.json, and that it
// ships no source maps and its LICENSE. Run after `pnpm build` (it packs the built `dist`).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

const root = fileURLToPath(new URL('..', import.meta.url));
const budgets = JSON.parse(readFileSync(join(root, 'scripts/size-budgets.json'), 'utf8'));
const problems = [];
const rows = [];

// `npm pack --dry-run` for every package at once: each spends most of its time starting npm.
const packed = await Promise.all(
  readdirSync(join(root, 'packages')).map(async (dir) => {
    const cwd = join(root, 'packages', dir);
    const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    if (manifest.private) return undefined;
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd,
      encoding: 'utf8',
    });
    return { manifest, pack: JSON.parse(stdout)[0] };
  }),
);

for (const { manifest, pack } of packed.filter(Boolean)) {
  const kib = pack.size / 1024;
  const budget = budgets[manifest.name];
  const files = pack.files.map((file) => file.path);
  rows.push(`${manifest.name.padEnd(26)} ${kib.toFixed(1).padStart(6)} KiB / ${budget ?? '?'} KiB`);
  if (budget === undefined)
    problems.push(`${manifest.name}: no budget in scripts/size-budgets.json`);
  else if (kib > budget)
    problems.push(`${manifest.name}: ${kib.toFixed(1)} KiB, over its ${budget} KiB budget`);
  const maps = files.filter((file) => file.endsWith('.map'));
  if (maps.length > 0) problems.push(`${manifest.name}: ships source maps (${maps.join(', ')})`);
  if (!files.includes('LICENSE')) problems.push(`${manifest.name}: ships no LICENSE`);
}

console.log(rows.join('\n'));
if (problems.length > 0) {
  console.error(`\nPackage size check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
