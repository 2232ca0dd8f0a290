import { type ClientOptions, createClient } from '@questkit/client';
import type { AppOptions } from './app.js';
import { DEFAULT_LEVEL_NEEDED, type QuestIds } from './quests.js';

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
  /** Where and how to read the platform's public API; null without `PLATFORM_API_KEY`. */
  platform: Pick<ClientOptions, 'baseUrl' | 'subdomain' | 'apiKey'> | null;
  /** The level the level quest asks for. */
  levelNeeded: number;
}

/**
 * The API key of the mock platform's demo quests. It is public (it is in the mock's seed), so it
 * is only a default for trying the example against `questkit mock`.
 */
export const DEMO_TASK_KEY = 'demo-task-key';

/**
 * Reads `QUEST_API_KEY` (several keys separated by commas during a rotation), `PORT` (default
 * 4010), `HOST` (default 127.0.0.1), `DISCORD_QUEST_ID`, `PASS_QUEST_ID`, `WEBHOOK_SECRET` (the
 * secret of the community's webhook pointing at `/webhooks`), and for the "reach level N" quest
 * `LEVEL_QUEST_ID` and `LEVEL_NEEDED` (default 5) with `PLATFORM_API_KEY` (a community API key),
 * `PLATFORM_URL` (default http://127.0.0.1:4000, the mock) and `PLATFORM_SUBDOMAIN` (default
 * demo). Throws a TypeError naming the variable when a value is unusable.
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
  if (env.LEVEL_QUEST_ID?.trim()) questIds.level = env.LEVEL_QUEST_ID.trim();
  const levelText = env.LEVEL_NEEDED?.trim() || String(DEFAULT_LEVEL_NEEDED);
  if (!/^\d{1,4}$/.test(levelText)) {
    throw new TypeError(
      `[@questkit/example-hono] LEVEL_NEEDED must be a level number, not "${levelText}"`,
    );
  }
  const platformKey = env.PLATFORM_API_KEY?.trim();
  if (questIds.level && !platformKey) {
    throw new TypeError(
      '[@questkit/example-hono] LEVEL_QUEST_ID needs PLATFORM_API_KEY: the quest reads the member’s level from the platform',
    );
  }
  const baseUrl = env.PLATFORM_URL?.trim() || 'http://127.0.0.1:4000';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new TypeError(
      `[@questkit/example-hono] PLATFORM_URL must be an http(s) URL, not "${baseUrl}"`,
    );
  }
  return {
    apiKey: keys.length > 0 ? keys : [DEMO_TASK_KEY],
    demoKey: keys.length === 0,
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    questIds,
    ...(env.WEBHOOK_SECRET?.trim() ? { webhookSecret: env.WEBHOOK_SECRET.trim() } : {}),
    platform: platformKey
      ? { baseUrl, subdomain: env.PLATFORM_SUBDOMAIN?.trim() || 'demo', apiKey: platformKey }
      : null,
    levelNeeded: Number(levelText),
  };
}

/** The app's options from a config: a platform client when the config has one. */
export function appOptionsOf(config: Config): AppOptions {
  const { platform, ...rest } = config;
  return platform ? { ...rest, platform: createClient(platform) } : rest;
}
