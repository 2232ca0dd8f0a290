import { appOptionsOf, readConfig } from './config.js';
import { startServer } from './server.js';

// `pnpm start`: configuration from the environment, one line per answer, Ctrl-C to stop.
try {
  const config = readConfig(process.env);
  if (config.demoKey) {
    console.log(
      "QUEST_API_KEY is not set: accepting the mock platform's public demo key. Set it to your task's API key.",
    );
  }
  const server = await startServer({
    ...appOptionsOf(config),
    port: config.port,
    host: config.host,
    onResult: (event) =>
      console.log(
        `${event.status} ${event.reason} quest=${event.questId ?? '-'}: ${event.message}`,
      ),
  });
  console.log(`Guild example (Hono) listening on ${server.url}`);
  console.log(`Verification endpoint: POST ${server.verifyUrl}`);
  if (config.webhookSecret)
    console.log(`Webhooks (welcomes new members): POST ${server.url}/webhooks`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
