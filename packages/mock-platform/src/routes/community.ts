import { CommunitySchema, ModuleListSchema, SubdomainParamsSchema } from '@questkit/core';
import { ok } from '../http/result.js';
import { defineRoute } from '../http/route.js';
import { communityView, moduleView } from '../views/community.js';

/** GET /public/communities/{subdomain}: any valid API key may read any community. */
export const getCommunity = defineRoute({
  operationId: 'getCommunity',
  method: 'get',
  path: '',
  summary: 'Community lookup',
  description:
    'Basic information on a community, available for any community whatever the community of the key.',
  tag: 'Community',
  apiKeyOnly: true,
  access: 'any',
  params: SubdomainParamsSchema,
  response: { name: 'Community', schema: CommunitySchema },
  errors: [401, 404, 429],
  handle: ({ community }, { store }) => ok(communityView(store, community)),
});

/** GET /public/communities/{subdomain}/modules */
export const listModules = defineRoute({
  operationId: 'listModules',
  method: 'get',
  path: '/modules',
  summary: 'List modules',
  description: 'The modules of the community, by position.',
  tag: 'Community',
  apiKeyOnly: true,
  access: 'read',
  params: SubdomainParamsSchema,
  response: { name: 'ModuleList', schema: ModuleListSchema },
  errors: [401, 403, 404, 429],
  handle: ({ community }, { store }) =>
    ok(store.modules.listByCommunity(community.id).map(moduleView)),
});
