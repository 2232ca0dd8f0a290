import * as z from 'zod';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import {
  allTimeLeaderboard,
  currentSprint,
  type LeaderboardEntry,
  sprintLeaderboard,
} from '../service/xp.js';
import { communityNotFound } from './request.js';
import { defineControlRoute } from './route.js';

// The leaderboards for the dashboard: the same computation as GET /leaderboard (all-time, or one
// sprint's), its top rows with their places, and the community's sprints to choose from.

/** Rows the dashboard's leaderboard shows. */
const TOP = 20;

const LeaderboardQuerySchema = z.object({
  sprintId: z.uuid().optional().describe('A sprint of the community; all-time when absent.'),
});

/**
 * `{sprints, sprintId, total, rows}`: the top 20 rows `{place, userId, name, xp, numberOfQuests}`
 * of the all-time leaderboard or of the sprint's; `sprints` each with `current` (the one running
 * on the platform's clock).
 */
export const LEADERBOARD_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/communities/{subdomain}/leaderboard',
    summary: 'The top 20 of the all-time leaderboard, or of a sprint’s, and the sprints',
    query: 'sprintId=40000000-0000-4000-8000-000000000001',
    querySchema: LeaderboardQuerySchema,
    handle: ({ params, query, c }, { context }) => {
      const { store } = context;
      const community = store.communities.getBySubdomain(params.subdomain);
      if (!community) return communityNotFound(params.subdomain);
      const sprints = store.sprints.listByCommunity(community.id);
      const running = currentSprint(store, community, context.clock.now());
      let board: LeaderboardEntry[];
      if (query.sprintId) {
        const sprint = sprints.find((candidate) => candidate.id === query.sprintId);
        if (!sprint) return toResponse(apiError(404, `Sprint ${query.sprintId} not found`));
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
        sprintId: query.sprintId ?? null,
        total: board.length,
        rows: board.slice(0, TOP).map((entry, index) => ({
          place: index + 1,
          userId: entry.user.id,
          name: entry.user.name,
          xp: entry.xp,
          numberOfQuests: entry.numberOfQuests,
        })),
      });
    },
  }),
];
