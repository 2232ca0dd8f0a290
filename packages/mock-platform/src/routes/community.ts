import { ok } from '../http/result.js';
import { bindRoute } from '../http/route.js';
import { communityView, moduleView } from '../views/community.js';

/** GET /public/communities/{subdomain}: any valid API key may read any community. */
export const getCommunity = bindRoute('getCommunity', ({ community }, { store }) =>
  ok(communityView(store, community)),
);

/** GET /public/communities/{subdomain}/modules */
export const listModules = bindRoute('listModules', ({ community }, { store }) =>
  ok(store.modules.listByCommunity(community.id).map(moduleView)),
);
