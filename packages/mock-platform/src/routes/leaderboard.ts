import { invalid } from '../errors.js';
import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { allTimeLeaderboard, currentSprint, sprintLeaderboard } from '../service/xp.js';
import { leaderboardRecord, sprintView } from '../views/leaderboard.js';

/** GET /leaderboard?page=&limit=&sprintId= */
export const getLeaderboard = bindRoute('getLeaderboard', ({ query, community }, { store }) => {
  let board: ReturnType<typeof allTimeLeaderboard>;
  if (query.sprintId === undefined) {
    board = allTimeLeaderboard(store, community);
  } else {
    const sprint = store.sprints.get(query.sprintId);
    if (!sprint || sprint.communityId !== community.id) {
      return invalid('query', 'sprintId', `is not a sprint of community ${community.subdomain}`);
    }
    board = sprintLeaderboard(store, community, sprint);
  }
  const start = (query.page - 1) * query.limit;
  return ok({
    data: board.slice(start, start + query.limit).map(leaderboardRecord),
    page: query.page,
    // Rounded up: 322 members at 100 a page are 4 pages, the last one of 22.
    totalPages: Math.ceil(board.length / query.limit),
    totalRecords: board.length,
    status: 'success' as const,
  });
});

/** GET /leaderboard/sprint?onlyCurrent= */
export const listSprints = bindRoute('listSprints', ({ query, community }, { store, clock }) => {
  if (query.onlyCurrent) {
    const current = currentSprint(store, community, clock.now());
    return ok({ data: current ? [sprintView(current)] : [] });
  }
  return ok({ data: store.sprints.listByCommunity(community.id).map(sprintView) });
});
