import { readConfig } from './config.js';
import { startServer } from './server.js';
import { warnIfMemoryDedupe } from './webhooks.js'; // @webhooks

// Settings from the environment; a missing secret stops here with one line and status 1.
try {
  const config = readConfig(process.env);
  const server = await startServer(config);
  console.log(`Verification endpoint: POST ${server.url}/verify`);
  console.log(`Connect redirect URL: ${config.connect.publicUrl ?? server.url}/connect`); // @connect
  console.log(`Webhook URL: POST ${server.url}/webhooks`); // @webhooks
  warnIfMemoryDedupe(process.env.NODE_ENV); // @webhooks
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`[my-quest-app] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
