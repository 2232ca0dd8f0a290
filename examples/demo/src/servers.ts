import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Client, createClient } from '@questkit/client';
import {
  type Community,
  type RunningServer as CommunityServer,
  createCommunity,
  startServer as startCommunity,
} from '@questkit/example-connect';
import {
  createApp as createShopApp,
  type RunningServer,
  type QuestIds as ShopQuestIds,
} from '@questkit/example-express';
import { startServer as startMeetup } from '@questkit/example-fastify';
import { startServer as startGuild } from '@questkit/example-hono';
import {
  createMockPlatform,
  DEMO,
  type MockPlatform,
  type MockServer,
  startMockServer,
} from '@questkit/mock-platform';
import { createPlatformClient, type PlatformClient } from './platform-client.js';
import { startWebhookReceiver, type WebhookReceiver } from './receiver.js';

/** Everything the demo runs, all on free loopback ports. */
export interface DemoServers {
  readonly platform: MockPlatform;
  readonly mock: MockServer;
  /** The mock's public API and control routes, over HTTP, as the demo community's admin. */
  readonly client: PlatformClient;
  /** The Express example. */
  readonly shop: RunningServer;
  readonly meetup: RunningServer;
  readonly guild: RunningServer;
  readonly community: CommunityServer;
  /** The connect example's members, sessions and links. */
  readonly communityData: Community;
  readonly receiver: WebhookReceiver;
  /** The API key of the demo's quest tasks: random per run, never printed. */
  readonly taskKey: string;
  /** Reloads the shop's configuration with the quest ids it should answer (same server). */
  reconfigureShop(questIds: Partial<ShopQuestIds>): void;
  /** Stops every server and the platform's retry timers. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** Where the demo listens. */
export interface DemoServerOptions {
  /**
   * The mock platform's port; the shop, the meetup, the guild, the community and the webhook
   * receiver take the next five, in that order. 0 (the default): free ports, picked by the system.
   */
  readonly port?: number;
}

/** How many consecutive ports `startDemoServers` takes from `port`. */
export const DEMO_PORTS = 6;

/**
 * Starts the mock platform, the four examples and a webhook receiver, wired to each other: the
 * connect example gets a connect secret created on the platform, the examples get a random task
 * key, and the seeded webhooks (which point at port 4010) are switched off so the demo's
 * deliveries go only to its own receiver.
 *
 * @example
 * const servers = await startDemoServers();
 * console.log(servers.shop.verifyUrl);
 * await servers.close();
 */
export async function startDemoServers(options: DemoServerOptions = {}): Promise<DemoServers> {
  const base = options.port ?? 0;
  if (!Number.isInteger(base) || base < 0 || base > 65536 - DEMO_PORTS)
    throw new RangeError(
      `port must be 0 or an integer from 1 to ${65536 - DEMO_PORTS}, not ${base}`,
    );
  // The n-th server's port: free ports when no base is given.
  const port = (n: number) => (base === 0 ? 0 : base + n);
  const taskKey = `qk_task_${randomBytes(16).toString('hex')}`;
  const platform = createMockPlatform({ seed: { users: 20 } });
  const started: { close(): Promise<void> }[] = [];
  try {
    const mock = await startMockServer(platform, { port: port(0), host: HOST });
    started.push(mock);
    const client = createPlatformClient(mock.url, DEMO.subdomain, DEMO.apiKeys.readWrite);
    for (const id of Object.values(DEMO.webhooks)) {
      const { status } = await client.updateWebhook(id, { active: false });
      if (status !== 200) throw new Error(`could not switch off the seeded webhook ${id}`);
    }
    const { status, body } = await client.rotateConnectSecret();
    if (status !== 200) throw new Error('could not create a connect secret on the platform');

    const communityData = createCommunity();
    const community = await startCommunity({
      apiKey: taskKey,
      connectSecret: body.secret,
      allowedCallbackOrigins: [mock.url],
      community: communityData,
      port: port(4),
      host: HOST,
    });
    started.push(community);
    // The shop's invites quest reads the platform with the read-only key, as a community would.
    const shopPlatform = createClient({
      baseUrl: mock.url,
      subdomain: DEMO.subdomain,
      apiKey: DEMO.apiKeys.readOnly,
    });
    const shop = await startReconfigurableShop(taskKey, shopPlatform, port(1));
    started.push(shop);
    const meetup = await startMeetup({ apiKey: taskKey, port: port(2), host: HOST });
    started.push(meetup);
    const guild = await startGuild({ apiKey: taskKey, port: port(3), host: HOST });
    started.push(guild);
    const receiver = await startWebhookReceiver(port(5));
    started.push(receiver);

    return {
      platform,
      mock,
      client,
      shop,
      meetup,
      guild,
      community,
      communityData,
      receiver,
      taskKey,
      reconfigureShop: shop.reconfigure,
      close: () => closeAll(platform, started),
    };
  } catch (error) {
    await closeAll(platform, started);
    throw error;
  }
}

async function closeAll(platform: MockPlatform, started: { close(): Promise<void> }[]) {
  platform.service.stop();
  await Promise.allSettled(started.reverse().map((server) => server.close()));
}

/**
 * The Express example behind one server whose app can be replaced: a new quest id takes effect
 * without closing the port, so the platform's kept-alive connections stay valid (a restart would
 * reset them under a call in flight).
 */
async function startReconfigurableShop(
  apiKey: string,
  platform: Client,
  port: number,
): Promise<RunningServer & { reconfigure(questIds: Partial<ShopQuestIds>): void }> {
  let app = createShopApp({ apiKey, platform });
  const server = createServer((req, res) => app(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, resolve);
  });
  const url = `http://${HOST}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    verifyUrl: `${url}/verify`,
    reconfigure(questIds) {
      app = createShopApp({ apiKey, questIds, platform });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
