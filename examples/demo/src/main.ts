import { DEMO } from '@questkit/mock-platform';
import { createReporter } from './reporter.js';
import { DEMO_PORTS, type DemoServers, startDemoServers } from './servers.js';
import { runStory } from './story.js';

const USAGE = `Usage: pnpm demo [--once] [--port <n>]

Starts the questkit mock platform and the example apps on loopback ports, and tells the story of
a quest: claims that succeed and fail, the connect flow, a webhook delivery and a conformance
run. Then the servers stay up until Ctrl-C.

  --once       exit after the story: status 0 only if every step behaved as expected
  --port <n>   the mock platform's port; the five apps take the next five ports
               (env QUESTKIT_DEMO_PORT; default 0: free ports)
  --help       this text
`;

// In --once mode the story must end: a bound well above its usual few seconds.
const ONCE_LIMIT_MS = 120_000;

function usageError(message: string): never {
  console.error(`${message}\n`);
  process.stderr.write(USAGE);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
let once = false;
let portText = process.env.QUESTKIT_DEMO_PORT || undefined;
let portSource = 'QUESTKIT_DEMO_PORT';
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  if (arg === '--once') once = true;
  else if (arg === '--port' || arg.startsWith('--port=')) {
    portText = arg === '--port' ? args[++i] : arg.slice('--port='.length);
    portSource = '--port';
    if (portText === undefined || portText === '')
      usageError('--port needs a value: a port number, or 0 for free ports');
  } else usageError(`Unknown argument: ${args.slice(i).join(' ')}`);
}
const port = portText === undefined ? 0 : Number(portText);
if (portText !== undefined && (!/^\d+$/.test(portText) || port > 65536 - DEMO_PORTS))
  usageError(
    `${portSource} must be 0 (free ports) or a port from 1 to ${65536 - DEMO_PORTS}, not "${portText}"`,
  );

const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
const reporter = createReporter((text) => process.stdout.write(text), color);

let servers: DemoServers;
try {
  servers = await startDemoServers({ port });
} catch (error) {
  const inUse = (error as { code?: unknown }).code === 'EADDRINUSE';
  console.error(
    inUse
      ? `The demo could not start: a port from ${port} to ${port + DEMO_PORTS - 1} is in use; pick another ${portSource}, or 0 for free ports.`
      : `The demo could not start: ${error instanceof Error ? error.message : error}`,
  );
  process.exit(1);
}

const table = (s: DemoServers) => [
  `  mock platform          ${s.mock.url}   (API docs: ${s.mock.url}/docs)`,
  `  dashboard              ${s.mock.url}/__mock/dashboard`,
  `  shop (Express)         ${s.shop.verifyUrl}`,
  `  meetup (Fastify)       ${s.meetup.verifyUrl}`,
  `  guild (Hono)           ${s.guild.verifyUrl}`,
  `  community (connect)    ${s.community.url}   (log in: ada / ada-demo-password)`,
  `  webhook receiver       ${s.receiver.url}`,
];

reporter.line('questkit demo: the mock platform drives the example apps over real HTTP');
for (const line of table(servers)) reporter.line(line);

let stopping = false;
const stop = (code: number) => {
  if (stopping) return;
  stopping = true;
  void servers.close().then(() => process.exit(code));
};
// Ctrl-C is how the demo ends: one line and status 0. `on`, not `once`: a second signal while
// the servers close (a terminal sends one to every process of the group) must not kill it.
const interrupted = () => {
  if (!stopping) reporter.line('questkit demo stopped.');
  stop(0);
};
process.on('SIGINT', interrupted);
process.on('SIGTERM', interrupted);
// On a terminal Ctrl-C reaches the demo as a key instead of a SIGINT to every process of the
// terminal's group: `npx`, which started pnpm, would end with status 130 whatever the demo said.
if (!once && process.stdin.isTTY) {
  process.stdin.setRawMode(true);
  process.stdin.on('data', (keys: Buffer) => {
    if (keys.includes(0x03) || keys.includes(0x04)) interrupted(); // Ctrl-C, Ctrl-D
  });
}

const watchdog = once
  ? setTimeout(() => {
      reporter.line(`The story did not end within ${ONCE_LIMIT_MS / 1000} s.`);
      stop(1);
    }, ONCE_LIMIT_MS)
  : undefined;
const story = await runStory(servers, reporter);
clearTimeout(watchdog);

if (once) {
  stop(story.ok ? 0 : 1);
} else {
  reporter.line();
  reporter.line('The servers keep running; try them:');
  for (const line of table(servers)) reporter.line(line);
  if (story.newsletterQuestId) {
    const claims = `${servers.mock.url}/__mock/communities/demo/quests/${story.newsletterQuestId}/claims`;
    reporter.line();
    reporter.line('Claim the newsletter quest as gus (subscribed) or hana (not subscribed):');
    reporter.line(
      `  curl -s -X POST ${claims} -H 'content-type: application/json' -d '{"userId":"${DEMO.users.restored}"}'`,
    );
    reporter.line(
      `  curl -s -X POST ${claims} -H 'content-type: application/json' -d '{"userId":"${DEMO.users.pendingInvitee}"}'`,
    );
  }
  if (story.connectQuestId) {
    const start = servers.client.connectStartUrl(story.connectQuestId, DEMO.users.admin);
    reporter.line('Connect as ada in your browser (log in as ada / ada-demo-password):');
    reporter.line(`  ${start}`);
  }
  reporter.line('Press Ctrl-C to stop.');
}
