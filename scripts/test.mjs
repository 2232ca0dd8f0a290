// The README's test run: vitest over every project (arguments are passed on), then
// `tests: N passed, M failed` from its JSON report as the last line, whatever vitest or a
// project's teardown printed before it. Exits 1 when vitest or the count says a test failed.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const report = join(root, '.vitest-report.json');
// A report left by an earlier run must not stand in for this one's.
rmSync(report, { force: true });
const started = Date.now();
const vitest = spawnSync(
  process.execPath,
  [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
console.log(`test run took ${Math.round((Date.now() - started) / 1000)} s`);
const summary = spawnSync(process.execPath, [join(root, 'scripts/test-summary.mjs'), report], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(vitest.status === 0 && summary.status === 0 ? 0 : 1);
