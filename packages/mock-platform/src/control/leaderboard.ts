import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import {
  allTimeLeaderboard,
  currentSprint,
  type LeaderboardEntry,
  sprintLeaderboard,
} from '../service/xp.js';
import { readQuery } from './request.js';

// The leaderboards for the dashboard: the same computation as GET /leaderboard (all-time, or one
// sprint's), its top rows with their places, and the community's sprints to choose from.

/** Rows the dashboard's leaderboard shows. */
const TOP = 20;

const LeaderboardQuerySchema = z.object({
  sprintId: z.uuid().optional().describe('A sprint of the community; all-time when absent.'),
});

/**
 * `GET /communities/{subdomain}/leaderboard?sprintId=`: `{sprints, sprintId, total, rows}`, the
 * top 20 rows `{place, userId, name, xp, numberOfQuests}` of the all-time leaderboard or of the
 * sprint's; `sprints` each with `current` (the one running on the platform's clock).
 */
export function leaderboardControlRoutes(context: MockContext): Hono {
  const routes = new Hono();
  const { store } = context;
  routes.get('/communities/:subdomain/leaderboard', (c) => {
    const community = store.communities.getBySubdomain(c.req.param('subdomain'));
    if (!community) {
      return toResponse(apiError(404, `Community "${c.req.param('subdomain')}" not found`));
    }
    const query = readQuery(c.req.raw, LeaderboardQuerySchema);
    if (!query.ok) return query.response;
    const sprints = store.sprints.listByCommunity(community.id);
    const running = currentSprint(store, community, context.clock.now());
    let board: LeaderboardEntry[];
    if (query.data.sprintId) {
      const sprint = sprints.find((candidate) => candidate.id === query.data.sprintId);
      if (!sprint) return toResponse(apiError(404, `Sprint ${query.data.sprintId} not found`));
      board = sprintLeaderboard(store, community, sprint);
    } else {
      board = allTimeLeaderboard(store, community);
    }
    return c.json({
      sprints: sprints.map((sprint) => ({
        id: sprint.id,
        name: sprint.name,
        startingAt: sprint.startingAt,
        endingAt: sprint.endingAt,
        current: sprint.id === running?.id,
      })),
      sprintId: query.data.sprintId ?? null,
      total: board.length,
      rows: board.slice(0, TOP).map((entry, index) => ({
        place: index + 1,
        userId: entry.user.id,
        name: entry.user.name,
        xp: entry.xp,
        numberOfQuests: entry.numberOfQuests,
      })),
    });
  });
  return routes;
}
