import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Once before the tests: `next build`, so they start the app as it ships. */
export default async function build() {
  const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
  await promisify(execFile)(process.execPath, [next, 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 600_000,
  });
}
