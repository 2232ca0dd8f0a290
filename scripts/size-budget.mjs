// Checks every published package's tarball against its budget in size-budgets.json, and that it
// ships no source maps and its LICENSE. Run after `pnpm build` (it packs the built `dist`).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const budgets = JSON.parse(readFileSync(join(root, 'scripts/size-budgets.json'), 'utf8'));
const problems = [];
const rows = [];

for (const dir of readdirSync(join(root, 'packages'))) {
  const cwd = join(root, 'packages', dir);
  const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  if (manifest.private) continue;
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out);
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
