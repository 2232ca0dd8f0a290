import { readConfig } from './config.js';
import { connectRedis } from './redis-start.js';
import { startServer } from './server.js';
import { type AppState, createRedisState } from './state.js';

// `pnpm start`: configuration from the environment, one line per answer and link, Ctrl-C to stop.
try {
  const config = readConfig(process.env);
  for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
  if (config.demoDefaults.length > 0) {
    console.log(
      `${config.demoDefaults.join(' and ')} not set: using the mock platform's public demo values. Set them to your community's.`,
    );
  }
  // With REDIS_URL, every instance shares sessions, links and the login throttle.
  let state: AppState | undefined;
  let closeRedis = async () => {};
  if (config.redisUrl) {
    // Logged without the URL, which may carry a password; requests fail while it is down.
    const redis = await connectRedis(config.redisUrl, {
      onError: (error) => console.error(`Redis: ${error.message}`),
    });
    state = createRedisState(redis);
    closeRedis = async () => void redis.destroy();
    console.log('Sessions, links and the login throttle are on Redis (REDIS_URL).');
  }
  const server = await startServer({
    ...config,
    state,
    onResult: (event) =>
      console.log(
        `${event.status} ${event.reason} quest=${event.questId ?? '-'}: ${event.message}`,
      ),
    onLinked: (member, svcUserId) =>
      console.log(`linked ${member.username} (${member.id}) to platform member ${svcUserId}`),
  });
  console.log(`Community app (connect example) listening on ${server.url}`);
  console.log(`Log in at ${server.url}/login (ada / ada-demo-password)`);
  console.log(`Connect redirect URL: ${server.connectUrl}`);
  console.log(`Verification endpoint: POST ${server.verifyUrl}`);
  const stop = () =>
    void server
      .close()
      .then(closeRedis)
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
