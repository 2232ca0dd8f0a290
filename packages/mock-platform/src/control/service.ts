import { Hono } from 'hono';
import type { MockContext } from '../context.js';
import type { MockService } from '../service/service.js';
import { browseRoutes } from './browse.js';
import { claimJournalRoutes } from './claim-journal.js';
import { claimRoutes } from './claims.js';
import { clockRoutes } from './clock.js';
import { connectRoutes } from './connect.js';
import { endpointCheckRoutes } from './endpoint-checks.js';
import { leaderboardControlRoutes } from './leaderboard.js';
import { memberRoutes } from './members.js';
import { reviewControlRoutes } from './reviews.js';
import { webhookRoutes } from './webhooks.js';

/**
 * The service side's control routes, mounted under /__mock/ beside the others: claims and calls,
 * endpoint checks, connect and secrets, members, events and deliveries, the clock, the journal of claims, the review queue, the leaderboards.
 */
export function createServiceControlApp(context: MockContext, service: MockService): Hono {
  const control = new Hono();
  control.route('/', claimRoutes(service));
  control.route('/', claimJournalRoutes(context, service));
  control.route('/', endpointCheckRoutes(service));
  control.route('/', connectRoutes(context, service));
  control.route('/', memberRoutes(context, service));
  control.route('/', webhookRoutes(context, service));
  control.route('/', clockRoutes(context, service));
  control.route('/', browseRoutes(context, service));
  control.route('/', reviewControlRoutes(context));
  control.route('/', leaderboardControlRoutes(context));
  return control;
}
