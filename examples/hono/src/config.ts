import type { QuestIds } from './quests.js';

/** The example's settings, read from the environment by {@link readConfig}. */
export interface Config {
  apiKey: string[];
  /** True when QUEST_API_KEY was not set and the mock platform's public demo key is used. */
  demoKey: boolean;
  port: number;
  host: string;
  questIds: Partial<QuestIds>;
  /** The community webhook's secret: with it, POST /webhooks welcomes new members. */
  webhookSecret?: string;
}

/**
 * The API key of the mock platform's demo quests. It is public (it is in the mock's seed), so it
 * is only a default for trying the example against `questkit mock`.
 */
export const DEMO_TASK_KEY = 'demo-task-key';

/**
 * Reads `QUEST_API_KEY` (several keys separated by commas during a rotation), `PORT` (default
 * 4010), `HOST` (default 127.0.0.1), `DISCORD_QUEST_ID`, `PASS_QUEST_ID` and `WEBHOOK_SECRET` (the
 * secret of the community's webhook pointing at `/webhooks`). Throws a
 * TypeError naming the variable when a value is unusable.
 *
 * @example
 * const config = readConfig(process.env);
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const keys = (env.QUEST_API_KEY ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  const portText = env.PORT?.trim() || '4010';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new TypeError(`[@questkit/example-hono] PORT must be a port number, not "${portText}"`);
  }
  const questIds: Partial<QuestIds> = {};
  if (env.DISCORD_QUEST_ID?.trim()) questIds.discord = env.DISCORD_QUEST_ID.trim();
  if (env.PASS_QUEST_ID?.trim()) questIds.pass = env.PASS_QUEST_ID.trim();
  return {
    apiKey: keys.length > 0 ? keys : [DEMO_TASK_KEY],
    demoKey: keys.length === 0,
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    questIds,
    ...(env.WEBHOOK_SECRET?.trim() ? { webhookSecret: env.WEBHOOK_SECRET.trim() } : {}),
  };
}
