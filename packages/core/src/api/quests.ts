import {
  IDENTIFICATION_METHODS,
  QuestCreateRequestSchema,
  QuestCreateResponseSchema,
  QuestListQuerySchema,
  QuestListSchema,
  SubdomainParamsSchema,
} from '../schemas/index.js';
import { QUEST_LIST_LIMIT_MAX } from '../schemas/limits.js';
import { defineOperation } from './operation.js';

/** GET /quests?limit=&cursor=&moduleId= */
export const listQuests = defineOperation({
  operationId: 'listQuests',
  method: 'get',
  path: '/quests',
  summary: 'List quests',
  description:
    'Quests ordered by createdAt, then id; deleted and archived quests included (see their flags). ' +
    'Without limit the server chooses the page size. The next page’s cursor is the id of the last quest of this page; ' +
    'a page shorter than limit is the last. moduleId keeps the quests of one module (categoryId). ' +
    'claimCounter is a cache refreshed at most every hour. Needs the admin role (or a community API key).',
  tag: 'Quests',
  access: 'admin',
  headers: ['x-svc-mcp-client'],
  paging: {
    size: 'limit',
    maxSize: QUEST_LIST_LIMIT_MAX,
    items: null,
    next: { kind: 'last-id', param: 'cursor' },
  },
  params: SubdomainParamsSchema,
  query: QuestListQuerySchema,
  response: { name: 'QuestList', schema: QuestListSchema },
  errors: [400, 401, 403, 404, 429],
});

/**
 * Quest creation body: core's schema plus the rules an API task must follow to be claimable (an
 * endpoint; identification methods named as the `accounts` keys; a redirect URL for svc-connect).
 */
export const QuestCreateBodySchema = QuestCreateRequestSchema.superRefine((body, issues) => {
  body.tasks?.forEach((task, index) => {
    if (task.type !== 'api') return;
    const at = (...path: (string | number)[]) => ['tasks', index, 'settings', ...path];
    const { endpoint, identifications = [], redirectUrl } = task.settings;
    if (!endpoint) {
      issues.addIssue({
        code: 'custom',
        path: at('endpoint'),
        message: 'An api task needs an endpoint',
      });
    }
    identifications.forEach((method, position) => {
      if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
        issues.addIssue({
          code: 'custom',
          path: at('identifications', position),
          message: `Unknown identification method; use one of ${IDENTIFICATION_METHODS.join(', ')}`,
        });
      }
    });
    if (identifications.includes('svc-connect') && !redirectUrl) {
      issues.addIssue({
        code: 'custom',
        path: at('redirectUrl'),
        message: 'The svc-connect identification method needs a redirectUrl',
      });
    }
  });
});

/** POST /quests */
export const createQuest = defineOperation({
  operationId: 'createQuest',
  method: 'post',
  path: '/quests',
  summary: 'Create a quest',
  description:
    'Needs a read-write API key. categoryId must be the id of a module of the community. An api task needs ' +
    'settings.endpoint; its settings.identifications are among email, wallet, discord, twitter, svc-connect ' +
    '(svc-connect also needs settings.redirectUrl).',
  tag: 'Quests',
  apiKeyOnly: true,
  access: 'write',
  params: SubdomainParamsSchema,
  body: QuestCreateBodySchema,
  response: { name: 'QuestCreateResponse', schema: QuestCreateResponseSchema },
  errors: [400, 401, 403, 404, 429],
});
