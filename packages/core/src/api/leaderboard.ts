import {
  LeaderboardQuerySchema,
  LeaderboardSchema,
  SprintListQuerySchema,
  SprintListSchema,
  SubdomainParamsSchema,
} from '../schemas/index.js';
import { LEADERBOARD_LIMIT_MAX, LEADERBOARD_PAGE_MIN } from '../schemas/limits.js';
import { CONTRACT_ERRORS } from './community.js';
import { defineOperation } from './operation.js';

/** GET /leaderboard?page=1&limit=100&sprintId= */
export const getLeaderboard = defineOperation({
  operationId: 'getLeaderboard',
  method: 'get',
  path: '/leaderboard',
  summary: 'Leaderboard',
  description:
    'Members by xp, highest first, then by user id; banned and deleted members are absent. With sprintId only the ' +
    'xp earned within the sprint’s dates counts (from its included quests when it lists some), and only members who ' +
    'earned some are listed. totalPages is ceil(totalRecords / limit); a page past the end has no data.',
  tag: 'Leaderboard',
  access: 'read',
  paging: {
    size: 'limit',
    maxSize: LEADERBOARD_LIMIT_MAX,
    items: 'data',
    next: { kind: 'page-number', param: 'page', first: LEADERBOARD_PAGE_MIN },
  },
  params: SubdomainParamsSchema,
  query: LeaderboardQuerySchema,
  response: { name: 'Leaderboard', schema: LeaderboardSchema },
  errors: CONTRACT_ERRORS,
});

/** GET /leaderboard/sprint?onlyCurrent=true */
export const listSprints = defineOperation({
  operationId: 'listSprints',
  method: 'get',
  path: '/leaderboard/sprint',
  summary: 'Sprints',
  description:
    'The sprints of the community by startingAt; with onlyCurrent, only the one running now (at most one runs at a time).',
  tag: 'Leaderboard',
  access: 'read',
  params: SubdomainParamsSchema,
  query: SprintListQuerySchema,
  response: { name: 'SprintList', schema: SprintListSchema },
  errors: CONTRACT_ERRORS,
});
