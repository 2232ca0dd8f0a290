import type { ResultEvent } from '@questkit/core';
import { verificationEndpoint } from '@questkit/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { createMeetup, type Meetup } from './meetup.js';
import { DEFAULT_QUEST_IDS, meetupQuests, type QuestIds } from './quests.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The API key of the quest tasks (`X-Api-Key`); a list during a rotation. */
  apiKey: string | readonly string[];
  /** The platform ids of the two quests; default the mock platform's demo quests. */
  questIds?: Partial<QuestIds>;
  /** The meetup's data; default the demo data. */
  meetup?: Meetup;
  /** Hears every answer (reason, status, message, requestId): for logs. Never a secret. */
  onResult?: (event: ResultEvent) => void;
}

/**
 * The meetup's Fastify app: `/verify` answers the platform's claims for the registration and
 * attendance quests (the plugin owns the route, every method); `GET /` says what runs here.
 *
 * @example
 * const app = createApp({ apiKey: process.env.QUEST_API_KEY! });
 * await app.listen({ port: 4010, host: '127.0.0.1' });
 */
export function createApp(options: AppOptions): FastifyInstance {
  const questIds = { ...DEFAULT_QUEST_IDS, ...options.questIds };
  const quests = meetupQuests(options.meetup ?? createMeetup(), questIds);
  // Errors only: the plugin reports handler failures through Fastify's logger.
  const app = Fastify({ logger: { level: 'error' } });
  app.register(verificationEndpoint, {
    path: '/verify',
    apiKey: options.apiKey,
    quests,
    onResult: options.onResult,
  });
  app.get('/', async (_request, reply) =>
    reply
      .type('text/plain')
      .send(
        `Meetup verification endpoint (Fastify). POST /verify answers the quests ${questIds.registered} (registration) and ${questIds.attended} (attendance).\n`,
      ),
  );
  return app;
}
