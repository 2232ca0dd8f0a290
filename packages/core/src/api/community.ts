import { CommunitySchema, ModuleListSchema, SubdomainParamsSchema } from '../schemas/index.js';
import { defineOperation } from './operation.js';

/** The statuses the contract declares on community lookup, modules and every webhook route. */
export const CONTRACT_ERRORS = [400, 401, 403, 404, 409, 429, 500] as const;

/** GET /public/communities/{subdomain}: any valid API key may read any community. */
export const getCommunity = defineOperation({
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
  errors: CONTRACT_ERRORS,
});

/** GET /public/communities/{subdomain}/modules */
export const listModules = defineOperation({
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
  errors: CONTRACT_ERRORS,
});
