// Run by `npm run dev` and `npm start`: the app refuses to start without its secrets. Next.js
// reads .env files itself; this check reads them the same way (never overriding the environment).
import { existsSync } from 'node:fs';

for (const file of ['.env.local', '.env']) if (existsSync(file)) process.loadEnvFile(file);
const missing = [
  'QUEST_API_KEY',
  'CONNECT_SECRET', // @connect
  'SESSION_SECRET', // @connect
  'PUBLIC_URL', // @connect
  'WEBHOOK_SECRET', // @webhooks
].filter((name) => !process.env[name]?.trim());
if (missing.length > 0) {
  console.error(`[my-quest-app] set ${missing.join(', ')} in the environment (see .env.example)`);
  process.exit(1);
}
// @if connect
if (process.env.SESSION_SECRET.length < 32) {
  console.error('[my-quest-app] SESSION_SECRET needs 32 characters or more (openssl rand -hex 32)');
  process.exit(1);
}
// @end
