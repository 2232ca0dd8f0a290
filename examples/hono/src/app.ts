import type { Client } from '@questkit/client';
import type { ResultEvent } from '@questkit/core';
import { verificationEndpoint, webhookEndpoint } from '@questkit/hono';
import { Hono } from 'hono';
import { createGuild, type Guild } from './guild.js';
import { DEFAULT_QUEST_IDS, guildQuests, type QuestIds } from './quests.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The API key of the quest tasks (`X-Api-Key`); a list during a rotation. */
  apiKey: string | readonly string[];
  /** The platform ids of the two quests; default the mock platform's demo quests. */
  questIds?: Partial<QuestIds>;
  /** The guild's data; default the demo data. */
  guild?: Guild;
  /** Hears every answer (reason, status, message, requestId): for logs. Never a secret. */
  onResult?: (event: ResultEvent) => void;
  /**
   * The secret of the community's webhook: with it, `POST /webhooks` receives the platform's
   * events and welcomes every member who joins.
   */
  webhookSecret?: string;
  /** A client of the platform's public API: the level quest reads the member's level. */
  platform?: Client;
  /** The level the level quest asks for (default 5). */
  levelNeeded?: number;
}

/**
 * The guild's Hono app: `POST /verify` answers the platform's claims for the Discord and pass
 * quests; `GET /` says what runs here. It runs on any runtime Hono runs on.
 *
 * @example
 * const app = createApp({ apiKey: process.env.QUEST_API_KEY! });
 * export default { fetch: app.fetch }; // Bun, Deno, Workers
 */
export function createApp(options: AppOptions): Hono {
  const questIds = { ...DEFAULT_QUEST_IDS, ...options.questIds };
  const guild = options.guild ?? createGuild();
  const app = new Hono();
  // app.all: the platform's checks also send other methods, which must get a 400 {message},
  // not Hono's 404 text.
  app.all(
    '/verify',
    verificationEndpoint({
      apiKey: options.apiKey,
      quests: guildQuests(guild, questIds, options.platform, options.levelNeeded),
      onResult: options.onResult,
    }),
  );
  if (options.webhookSecret) {
    // Deliveries come at least once: the receiver skips an event id it already handled.
    app.post(
      '/webhooks',
      webhookEndpoint({
        secret: options.webhookSecret,
        on: {
          JOINED_COMMUNITY: ({ data }) => guild.welcome(data.user.id, data.user.name),
          // The guild knows its members by Discord account: find the member by data.user, credit data.quest.
          QUEST_SUCCEEDED: ({ data }) => {
            if (data.user.discord) guild.credit(data.user.discord.id, data.quest);
          },
        },
      }),
    );
  }
  app.get('/', (c) =>
    c.text(
      `Guild verification endpoint (Hono). POST /verify answers the quests ${questIds.discord} (Discord role) and ${questIds.pass} (membership pass).\n`,
    ),
  );
  return app;
}
