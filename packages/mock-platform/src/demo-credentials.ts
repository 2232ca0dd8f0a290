import { randomHex } from './ids.js';
import { DEMO } from './seed/demo-ids.js';
import type { ApiKeyScope } from './store/records.js';
import type { Store } from './store/store.js';

/** The credentials of the demo seed: public values, printed in the README and this package. */
export const PUBLISHED_CREDENTIALS: readonly string[] = [
  DEMO.apiKeys.readWrite,
  DEMO.apiKeys.readOnly,
  DEMO.sandbox.apiKey,
  DEMO.connectSecret,
  DEMO.sandbox.connectSecret,
];

/** A credential made by {@link replacePublishedCredentials}. */
export type GeneratedCredential =
  | { subdomain: string; kind: 'api-key'; scope: ApiKeyScope; value: string }
  | { subdomain: string; kind: 'connect-secret'; value: string };

const SCOPE_TAG: Record<ApiKeyScope, string> = { 'read-write': 'rw', 'read-only': 'ro' };

/**
 * Replaces every API key and connect secret of the store whose value is published (the demo
 * seed's, whatever the store was loaded from) with a random one, and returns the new ones. For a
 * mock reachable beyond loopback, where the published values would open it to anyone.
 *
 * @example
 * const platform = createMockPlatform({ apiKey: process.env.MOCK_KEY });
 * for (const credential of replacePublishedCredentials(platform.store)) show(credential);
 */
export function replacePublishedCredentials(
  store: Store,
  options: { keep?: readonly string[] } = {},
): GeneratedCredential[] {
  const published = new Set(PUBLISHED_CREDENTIALS.filter((v) => !options.keep?.includes(v)));
  const generated: GeneratedCredential[] = [];
  for (const community of store.communities.list()) {
    for (const key of store.apiKeys.listByCommunity(community.id)) {
      if (!published.has(key.key)) continue;
      const value = `qk_${community.subdomain}_${SCOPE_TAG[key.scope]}_${randomHex(16)}`;
      store.apiKeys.put({ ...key, key: value });
      generated.push({ subdomain: community.subdomain, kind: 'api-key', scope: key.scope, value });
    }
    if (published.has(community.connectSecret)) {
      const value = `cs_${randomHex(32)}`;
      store.communities.put({ ...community, connectSecret: value });
      generated.push({ subdomain: community.subdomain, kind: 'connect-secret', value });
    }
  }
  return generated;
}
