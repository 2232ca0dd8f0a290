import { createPlatformClient, type PlatformClient } from '@questkit/demo';
import {
  createMockPlatform,
  DEMO,
  type MockPlatform,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';

/** A mock platform on a free loopback port, with a client of its API as the demo's admin. */
export interface TestPlatform {
  platform: MockPlatform;
  server: MockServer;
  client: PlatformClient;
  close(): Promise<void>;
}

/**
 * Starts the mock platform with its demo seed (named members only), the seeded API tasks calling
 * `verifyEndpoint`.
 */
export async function startPlatform(verifyEndpoint?: string): Promise<TestPlatform> {
  const platform = createMockPlatform({ seed: { users: 0, verifyEndpoint } });
  const server = await startMockServer(platform, { port: 0, host: '127.0.0.1' });
  return {
    platform,
    server,
    client: createPlatformClient(server.url, DEMO.subdomain, DEMO.apiKeys.readWrite),
    async close() {
      platform.service.stop();
      await server.close();
    },
  };
}

/** The named members of the mock's seed, by first name. */
export const MEMBERS = {
  ada: DEMO.users.admin,
  ben: DEMO.users.editor,
  cleo: DEMO.users.reviewer,
  gus: DEMO.users.restored,
  jay: DEMO.users.walletOnly,
} as const;

/** Every account ada has linked on the platform, as a claim carries them. */
export const ADA_ACCOUNTS = {
  email: 'ada@example.com',
  wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
  discord: { id: '80351110224678912', handle: 'ada.lovelace' },
  twitter: { id: '1426853018373939201', username: 'ada_builds' },
};
