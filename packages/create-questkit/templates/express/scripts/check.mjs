// `npm run check` (and `npm run check:webhook`): questkit's judge against the app running on this
// machine (`npm run dev` in another terminal), with the secrets of .env and the task's
// identification methods, as the platform will call it. Secrets travel in the environment, never
// on the command line. Anything after `--` goes to questkit (`npm run check -- --help`).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The task's identification methods: the same as REQUIRES in src/quest.ts ('' for none).
const IDENTIFICATIONS = 'svc-connect';
const ORIGIN = process.env.CHECK_ORIGIN || 'http://127.0.0.1:4010';

const cli = join(
  dirname(createRequire(import.meta.url).resolve('questkit/package.json')),
  'dist/cli.js',
);
const webhook = process.argv[2] === 'webhook';
const env = { ...process.env };
const args = [];
if (webhook) {
  // @if webhooks
  if (process.env.WEBHOOK_SECRET) env.QUESTKIT_WEBHOOK_SECRET = process.env.WEBHOOK_SECRET;
  args.push('check-webhook', `${ORIGIN}/webhooks`);
  // @end
} else {
  args.push('check', `${ORIGIN}/verify`);
  if (IDENTIFICATIONS) args.push('--identifications', IDENTIFICATIONS);
  // @if connect
  if (process.env.CONNECT_SECRET) env.QUESTKIT_CONNECT_SECRET = process.env.CONNECT_SECRET;
  args.push('--connect-url', `${ORIGIN}/connect`);
  // @end
}
const extra = process.argv.slice(webhook ? 3 : 2);
const { status } = spawnSync(process.execPath, [cli, ...args, ...extra], { env, stdio: 'inherit' });
process.exit(status ?? 1);
