import { serveWorker } from './node-server.js';

// `npm run start:node`: the Worker on Node, bindings from the environment, on 127.0.0.1:8787.
try {
  const server = await serveWorker(
    process.env,
    Number(process.env.PORT) || 8787,
    process.env.HOST || '127.0.0.1',
  );
  console.log(`Verification endpoint: POST ${server.url}/verify`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`[my-quest-app] ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
