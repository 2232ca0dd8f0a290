import { type ClientOptions, createClient } from '@questkit/client';
import type { AppOptions } from './app.js';
import type { QuestIds } from './quests.js';

/** The example's settings, read from the environment by {@link readConfig}. */
export interface Config {
  apiKey: string[];
  /** True when QUEST_API_KEY was not set and the mock platform's public demo key is used. */
  demoKey: boolean;
  port: number;
  host: string;
  questIds: Partial<QuestIds>;
  /** Where and how to read the platform's public API; null without `PLATFORM_API_KEY`. */
  platform: Pick<ClientOptions, 'baseUrl' | 'subdomain' | 'apiKey'> | null;
}

/**
 * The API key of the mock platform's demo quests. It is public (it is in the mock's seed), so it
 * is only a default for trying the example against `questkit mock`.
 */
export const DEMO_TASK_KEY = 'demo-task-key';

/**
 * Reads `QUEST_API_KEY` (several keys separated by commas during a rotation), `PORT` (default
 * 4010), `HOST` (default 127.0.0.1), `NEWSLETTER_QUEST_ID`, `PURCHASE_QUEST_ID`, and for the
 * "invite 3 friends" quest `INVITES_QUEST_ID` with `PLATFORM_API_KEY` (a community API key),
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
    throw new TypeError(
      `[@questkit/example-express] PORT must be a port number, not "${portText}"`,
    );
  }
  const questIds: Partial<QuestIds> = {};
  if (env.NEWSLETTER_QUEST_ID?.trim()) questIds.newsletter = env.NEWSLETTER_QUEST_ID.trim();
  if (env.PURCHASE_QUEST_ID?.trim()) questIds.purchase = env.PURCHASE_QUEST_ID.trim();
  if (env.INVITES_QUEST_ID?.trim()) questIds.invites = env.INVITES_QUEST_ID.trim();
  const platformKey = env.PLATFORM_API_KEY?.trim();
  if (questIds.invites && !platformKey) {
    throw new TypeError(
      '[@questkit/example-express] INVITES_QUEST_ID needs PLATFORM_API_KEY: the quest reads the member’s invites from the platform',
    );
  }
  const baseUrl = env.PLATFORM_URL?.trim() || 'http://127.0.0.1:4000';
  if (!/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new TypeError(
      `[@questkit/example-express] PLATFORM_URL must be an http(s) URL, not "${baseUrl}"`,
    );
  }
  return {
    apiKey: keys.length > 0 ? keys : [DEMO_TASK_KEY],
    demoKey: keys.length === 0,
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    questIds,
    platform: platformKey
      ? { baseUrl, subdomain: env.PLATFORM_SUBDOMAIN?.trim() || 'demo', apiKey: platformKey }
      : null,
  };
}

/** The app's options from a config: a platform client when the config has one. */
export function appOptionsOf(config: Config): AppOptions {
  const { platform, ...rest } = config;
  return platform ? { ...rest, platform: createClient(platform) } : rest;
}
