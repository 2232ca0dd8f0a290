import type { Client } from '@questkit/client';
import type { ResultEvent } from '@questkit/core';
import { verificationEndpoint } from '@questkit/express';
import express, { type Express } from 'express';
import { DEFAULT_QUEST_IDS, type QuestIds, shopQuests } from './quests.js';
import { createShop, type Shop } from './shop.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The API key of the quest tasks (`X-Api-Key`); a list during a rotation. */
  apiKey: string | readonly string[];
  /** The platform ids of the two quests; default the mock platform's demo quests. */
  questIds?: Partial<QuestIds>;
  /** The shop's data; default the demo data. */
  shop?: Shop;
  /** A client of the platform's public API: the invites quest reads the member's invites. */
  platform?: Client;
  /** Hears every answer (reason, status, message, requestId): for logs. Never a secret. */
  onResult?: (event: ResultEvent) => void;
}

/**
 * The shop's Express app: `POST /verify` answers the platform's claims for the newsletter and
 * purchase quests; `GET /` says what runs here.
 *
 * @example
 * const app = createApp({ apiKey: process.env.QUEST_API_KEY! });
 * app.listen(4010, '127.0.0.1');
 */
export function createApp(options: AppOptions): Express {
  const questIds = { ...DEFAULT_QUEST_IDS, ...options.questIds };
  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the endpoint checks the API key before it reads a byte of the body.
  // app.all: the platform's checks also send other methods, which must get a 400 {message}.
  app.all(
    '/verify',
    verificationEndpoint({
      apiKey: options.apiKey,
      quests: shopQuests(options.shop ?? createShop(), questIds, options.platform),
      onResult: options.onResult,
    }),
  );
  // The rest of the app's routes, with the parser most Express apps have.
  app.use(express.json({ limit: '64kb' }));

  app.get('/', (_req, res) => {
    res
      .type('text/plain')
      .send(
        `Shop verification endpoint (Express). POST /verify answers the quests ${questIds.newsletter} (newsletter) and ${questIds.purchase} (purchase).\n`,
      );
  });
  return app;
}
