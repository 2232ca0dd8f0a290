import type { Command } from '../command.js';
import type { CliIo } from '../io.js';
import { MOCK_FLAGS } from './mock/flags.js';
import { runMock } from './mock/run.js';

const MOCK_PACKAGE = '@questkit/mock-platform';

/**
 * `questkit mock`: runs the mock platform. Its flags are parsed by the CLI's one parser, like
 * every command's. The mock is an optional peer dependency, loaded only here: `questkit check`
 * in an app's CI must not install the mock's HTTP server stack.
 */
export const mockCommand: Command = {
  name: 'mock',
  summary: 'Run the mock platform (public API, control routes, docs) on a local port',
  usage: 'mock [options]',
  description:
    'Runs the reference mock platform on a local port: the public API under /public/, the control\nroutes under /__mock/ (claims, connect, webhook deliveries, the clock), /docs and the\nOpenAPI documents. Needs @questkit/mock-platform installed beside questkit.',
  flags: MOCK_FLAGS,
  epilog: `Control routes (base URL http://127.0.0.1:4000; all of them in /__mock/openapi.json):
  POST   /__mock/communities/demo/quests/<questId>/claims  {"userId": "..."}   claim a quest as a member
  GET    /__mock/calls                                                     the verification calls
  POST   /__mock/endpoint-checks  {"endpoint": "...", "apiKey": "..."}       the platform's automatic checks
  GET    /__mock/connect/start?subdomain=demo&questId=...&userId=...        start the connect flow
  POST   /__mock/communities/demo/members  {"name": "zoe"}                  add a member (JOINED_COMMUNITY)
  POST   /__mock/webhooks/deliveries/<id>/replay                           replay a webhook delivery
  POST   /__mock/clock/advance  {"ms": 86400000}                           move the clock (with --clock manual)
  POST   /__mock/tokens  {"userId": "..."}                                  a member token
With --verbose the banner lists every route that works in the running mode with a curl example.
The demo quests' API tasks call http://127.0.0.1:4010/verify with x-api-key demo-task-key: serve
your endpoint there with QUEST_API_KEY=demo-task-key, or point them at it with --verify-endpoint. With --clock manual (or a date-time), the
platform time stands still until advanced: claim a daily quest, advance a day, claim it again.

Exit codes: 0 after a clean stop (Ctrl-C), 1 when the server cannot start, 2 for bad arguments.`,
  async run(parsed, io: CliIo) {
    let mock: typeof import('@questkit/mock-platform');
    try {
      mock = await import(MOCK_PACKAGE);
    } catch (error) {
      if (!isMissing(error)) throw error;
      io.stderr.write(
        `questkit mock: ${MOCK_PACKAGE} is not installed.\nInstall it beside questkit: npm install --save-dev ${MOCK_PACKAGE}\n`,
      );
      return 1;
    }
    return runMock(mock, parsed.values, io);
  },
};

function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(MOCK_PACKAGE)
  );
}
