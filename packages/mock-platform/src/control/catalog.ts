/** One control route of the mock, as the help, the start-up banner and its OpenAPI document show it. */
export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the mock's base URL, OpenAPI style: `/__mock/clock/advance`. */
  path: string;
  summary: string;
  /** A JSON body to send, for the example. */
  example?: unknown;
  /** The example's query string, without `?`. */
  query?: string;
}

/**
 * Every route under `/__mock/`: what tests, demos and the dashboard drive the mock with. One list,
 * so that `questkit mock --help`, the banner and `/__mock/openapi.json` cannot disagree.
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/__mock/communities/{subdomain}/quests/{questId}/claims',
    summary: 'Claim a quest as a member: calls the API tasks’ verification endpoints',
    example: { userId: '10000000-0000-4000-8000-000000000001' },
  },
  {
    method: 'GET',
    path: '/__mock/calls',
    summary: 'The verification calls of claims',
    query: 'outcome=fault',
  },
  { method: 'DELETE', path: '/__mock/calls', summary: 'Clear the verification calls' },
  {
    method: 'GET',
    path: '/__mock/claims',
    summary: 'Every claim, whatever its outcome (claimed, not-verified, refused, endpoint-fault)',
    query: 'outcome=refused',
  },
  { method: 'DELETE', path: '/__mock/claims', summary: 'Clear the journal of claims' },
  {
    method: 'POST',
    path: '/__mock/claims/{requestId}/tasks/{taskId}/replay',
    summary: 'Send a claim’s verification call again, with the task’s current key',
  },
  {
    method: 'POST',
    path: '/__mock/endpoint-checks',
    summary: 'Run the platform’s automatic checks of an endpoint now',
    example: {
      endpoint: 'http://127.0.0.1:4010/verify',
      apiKey: 'demo-task-key',
      identifications: ['email'],
    },
  },
  {
    method: 'GET',
    path: '/__mock/endpoint-checks',
    summary: 'The endpoint checks and their verdicts',
  },
  { method: 'DELETE', path: '/__mock/endpoint-checks', summary: 'Clear the endpoint checks' },
  {
    method: 'GET',
    path: '/__mock/connect/start',
    summary:
      'Start the connect flow as a member: 302 to the task’s signed redirect ({location} for JSON)',
    query: 'subdomain=demo&questId=<questId>&userId=<userId>',
  },
  {
    method: 'GET',
    path: '/__mock/connect/callback',
    summary: 'The connect callback: verifies the community’s answer (one-time, 10 minutes)',
  },
  { method: 'GET', path: '/__mock/communities', summary: 'The communities, by subdomain' },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/secret',
    summary: 'Read the connect secret',
  },
  {
    method: 'PUT',
    path: '/__mock/communities/{subdomain}/secret',
    summary: 'Set the connect secret (generated when absent)',
    example: { secret: 'my-connect-secret' },
  },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/users/{userId}/connections',
    summary: 'A member’s connect associations',
  },
  {
    method: 'POST',
    path: '/__mock/communities/{subdomain}/members',
    summary: 'Add a member (fires JOINED_COMMUNITY)',
    example: { name: 'zoe', discordHandle: 'zoe#0001', xp: 120 },
  },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/members',
    summary: 'Find members by id, any identifier or a name prefix (20 at most)',
    query: 'q=ada.lovelace',
  },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/quests',
    summary: 'The quests that have API tasks, with their endpoints',
  },
  {
    method: 'POST',
    path: '/__mock/communities/{subdomain}/events',
    summary: 'Fire an event to the community’s webhooks',
    example: { type: 'JOINED_COMMUNITY' },
  },
  {
    method: 'GET',
    path: '/__mock/webhooks/deliveries',
    summary: 'Webhook deliveries, newest first (100 at most)',
    query: 'status=failed',
  },
  {
    method: 'GET',
    path: '/__mock/webhooks/deliveries/{deliveryId}',
    summary: 'A webhook delivery with its payload and attempts',
  },
  {
    method: 'POST',
    path: '/__mock/webhooks/deliveries/{deliveryId}/replay',
    summary: 'Deliver the same event again (same event id)',
  },
  { method: 'GET', path: '/__mock/clock', summary: 'The test clock and the pending retries' },
  {
    method: 'POST',
    path: '/__mock/clock/advance',
    summary: 'Move a manual clock, running the retries that fall due',
    example: { ms: 60_000 },
  },
  {
    method: 'POST',
    path: '/__mock/tokens',
    summary: 'Issue a member token (authorization: Bearer)',
    example: { userId: '10000000-0000-4000-8000-000000000001' },
  },
  { method: 'GET', path: '/__mock/requests', summary: 'The journal of public API requests' },
  { method: 'DELETE', path: '/__mock/requests', summary: 'Clear the journal' },
  {
    method: 'GET',
    path: '/__mock/events',
    summary: 'Claims and verification calls as they happen (server-sent events claim and call)',
  },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/reviews',
    summary: 'The review queue: claimed quests with their events, oldest first (100 at most)',
    query: 'status=pending',
  },
  {
    method: 'POST',
    path: '/__mock/communities/{subdomain}/reviews',
    summary: 'Review claimed quests (the rules and effects of POST /reviews)',
    example: {
      claimedQuestIds: ['70000000-0000-4000-8000-000000000001'],
      status: 'success',
      mark: 'star',
      bonusXP: 50,
    },
  },
  {
    method: 'GET',
    path: '/__mock/communities/{subdomain}/leaderboard',
    summary: 'The top 20 of the all-time leaderboard, or of a sprint’s, and the sprints',
    query: 'sprintId=40000000-0000-4000-8000-000000000001',
  },
  { method: 'GET', path: '/__mock/dashboard', summary: 'The dashboard (an HTML page)' },
  { method: 'GET', path: '/__mock/openapi.json', summary: 'This list, as an OpenAPI document' },
];

/** A curl line for a control route, on the mock at `baseUrl`, with `demo` as the community. */
export function controlExample(route: ControlRoute, baseUrl: string): string {
  const path = route.path.replaceAll('{subdomain}', 'demo').replace(/\{(\w+)\}/g, '<$1>');
  const url = `${baseUrl}${path}${route.query ? `?${route.query}` : ''}`;
  const method = route.method === 'GET' ? '' : `-X ${route.method} `;
  const body =
    route.example === undefined
      ? ''
      : ` -H 'content-type: application/json' -d '${JSON.stringify(route.example)}'`;
  return `curl ${method}'${url}'${body}`;
}

/** The control routes as an OpenAPI 3.1 document, with an example request for each. */
export function buildControlOpenApi(baseUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of CONTROL_ROUTES) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...(name === 'subdomain' ? { example: 'demo' } : {}),
    }));
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: `${route.method.toLowerCase()}${route.path
        .replace('/__mock', '')
        .replace(/\{(\w+)\}/g, 'By-$1')
        .split(/[/-]/)
        .filter(Boolean)
        .map((word) => word[0]!.toUpperCase() + word.slice(1))
        .join('')}`,
      summary: route.summary,
      tags: ['control'],
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(route.example !== undefined
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: { type: 'object' }, example: route.example },
              },
            },
          }
        : {}),
      responses: {
        '200': { description: 'Done; the body says what happened (JSON).' },
        '400': { description: 'Invalid input: `{"message", "issues"}`.' },
        '404': { description: 'Unknown community, quest, member or delivery.' },
      },
      'x-example': controlExample(route, baseUrl ?? 'http://127.0.0.1:4000'),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'questkit mock platform: control routes',
      version: '1',
      description:
        'Routes that drive the mock in tests, demos and the dashboard. Not part of the platform: never under /public/.',
    },
    ...(baseUrl ? { servers: [{ url: baseUrl }] } : {}),
    paths,
  };
}
