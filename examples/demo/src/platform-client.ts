import type {
  QuestCreateRequestInput,
  QuestCreateResponse,
  Webhook,
  WebhookCreateBody,
  WebhookDeliveryRecordList,
} from '@questkit/core/api';
import type {
  ClaimResult,
  ConnectionRecord,
  EndpointCheck,
  JoinResult,
  MemberJoinBody,
} from '@questkit/mock-platform';

/** An answer of the platform: its status and JSON body (null when it had none). */
export interface Answer<T> {
  status: number;
  body: T;
}

/** The calls the demo makes to the platform: its public API and its `/__mock/` control routes. */
export interface PlatformClient {
  readonly baseUrl: string;
  createQuest(quest: QuestCreateRequestInput): Promise<Answer<QuestCreateResponse>>;
  /** The automatic checks of a quest's endpoints, once every one has finished (bounded wait). */
  endpointChecks(questId: string, timeoutMs: number): Promise<EndpointCheck[]>;
  claim(questId: string, userId: string): Promise<Answer<ClaimResult>>;
  /** The URL that starts the connect flow of a quest for a member (a browser opens it). */
  connectStartUrl(questId: string, userId: string): string;
  connections(userId: string): Promise<Answer<ConnectionRecord[]>>;
  /** Creates a new random connect secret, as an admin does in the integration settings. */
  rotateConnectSecret(): Promise<Answer<{ secret: string }>>;
  createWebhook(webhook: WebhookCreateBody): Promise<Answer<{ id: string }>>;
  updateWebhook(id: string, changes: Partial<WebhookCreateBody>): Promise<Answer<null>>;
  webhooks(): Promise<Answer<{ items: Webhook[]; nextCursor: string | null }>>;
  webhookEvents(id: string): Promise<Answer<WebhookDeliveryRecordList>>;
  /** A new member joins the community (fires `JOINED_COMMUNITY`). */
  join(member: MemberJoinBody): Promise<Answer<JoinResult>>;
}

// A bound on every request: a stuck server must fail the step, not hang the demo.
const REQUEST_TIMEOUT_MS = 15_000;
const POLL_INTERVAL_MS = 25;

/**
 * A client of the mock platform at `baseUrl`, for the community `subdomain`, with a read-write
 * API key. The key goes in the `x-api-key` header only, never in a printed line.
 *
 * @example
 * const platform = createPlatformClient('http://127.0.0.1:4000', 'demo', apiKey);
 * const { body: quest } = await platform.createQuest({ ... });
 */
export function createPlatformClient(
  baseUrl: string,
  subdomain: string,
  apiKey: string,
): PlatformClient {
  const community = `${baseUrl}/public/communities/${encodeURIComponent(subdomain)}`;
  const control = `${baseUrl}/__mock/communities/${encodeURIComponent(subdomain)}`;

  async function call<T>(method: string, url: string, body?: unknown): Promise<Answer<T>> {
    const response = await fetch(url, {
      method,
      headers: {
        'x-api-key': apiKey,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      // The mock never redirects these routes: a redirect would carry the key elsewhere.
      redirect: 'error',
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
  }

  return {
    baseUrl,
    createQuest: (quest) => call('POST', `${community}/quests`, quest),
    async endpointChecks(questId, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { status, body } = await call<EndpointCheck[]>(
          'GET',
          `${baseUrl}/__mock/endpoint-checks?questId=${encodeURIComponent(questId)}`,
        );
        if (status !== 200) throw new Error(`the endpoint checks could not be read (${status})`);
        if (body.length > 0 && body.every((check) => check.state === 'done')) return body;
        if (Date.now() >= deadline) return body;
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      }
    },
    claim: (questId, userId) =>
      call('POST', `${control}/quests/${encodeURIComponent(questId)}/claims`, { userId }),
    connectStartUrl: (questId, userId) =>
      `${baseUrl}/__mock/connect/start?${new URLSearchParams({ subdomain, questId, userId })}`,
    connections: (userId) =>
      call('GET', `${control}/users/${encodeURIComponent(userId)}/connections`),
    rotateConnectSecret: () => call('PUT', `${control}/secret`, {}),
    createWebhook: (webhook) => call('POST', `${community}/webhooks`, webhook),
    updateWebhook: (id, changes) =>
      call('PATCH', `${community}/webhooks/${encodeURIComponent(id)}`, changes),
    webhooks: () => call('GET', `${community}/webhooks?limit=100`),
    webhookEvents: (id) => call('GET', `${community}/webhooks/${encodeURIComponent(id)}/events`),
    join: (member) => call('POST', `${control}/members`, member),
  };
}
