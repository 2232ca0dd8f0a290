import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock.js';
import { createMockPlatform, type MockPlatform } from '../platform.js';
import { type MockServer, startMockServer } from '../server.js';
import { CONTROL_ROUTES, controlExample } from './catalog.js';

// The catalogue is made from the routes the mock serves: both directions are checked, the router's
// own table against the catalogue, and each listed route against a real server.

type Operation = {
  summary: string;
  'x-example': string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: { 'application/json': { schema: { required?: string[] } } } };
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

let platform: MockPlatform;
let server: MockServer;

beforeAll(async () => {
  platform = createMockPlatform({
    endpointChecks: false,
    rateLimit: false,
    clock: createManualClock('2025-06-01T12:00:00.000Z'),
  });
  server = await startMockServer(platform, { port: 0 });
});
afterAll(() => server?.close());

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const listed = () => CONTROL_ROUTES.map((route) => key(route.method, route.path)).sort();

async function controlDocument(): Promise<Document> {
  const response = await fetch(`${server.url}/__mock/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

describe('the control routes catalogue', () => {
  it('lists every route the mock serves under /__mock/, once', () => {
    const served = platform.app.routes
      .filter((route) => route.path.startsWith('/__mock'))
      .map((route) => key(route.method, route.path.replace(/:(\w+)/g, '{$1}')))
      .sort();
    expect(served).toEqual(listed());
    expect(new Set(listed()).size).toBe(CONTROL_ROUTES.length);
  });

  it('names only routes the mock serves, over HTTP', async () => {
    for (const route of CONTROL_ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name) =>
        name === 'subdomain' ? 'demo' : 'unknown',
      );
      const response = await fetch(`${server.url}${path}`, {
        method: route.method,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        ...(route.method === 'GET' || route.method === 'DELETE'
          ? {}
          : { body: JSON.stringify(route.example ?? {}) }),
      });
      // The event stream never ends by itself: its head is enough.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        expect(response.status).toBe(200);
        await response.body?.cancel();
        continue;
      }
      const text = await response.text();
      expect(text, `${route.method} ${route.path}`).not.toMatch(/No route for/);
    }
    const unlisted = await fetch(`${server.url}/__mock/not-a-route`);
    expect(await unlisted.text()).toMatch(/No route for GET \/__mock\/not-a-route/);
  });

  it('is served as a valid OpenAPI document with every listed route and nothing else', async () => {
    const document = await controlDocument();
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => key(method, path)))
      .sort();
    expect(documented).toEqual(listed());
    for (const operation of Object.values(document.paths).flatMap((m) => Object.values(m)))
      expect(operation['x-example']).toMatch(/^curl /);
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents the query and body each route validates', async () => {
    const { paths } = await controlDocument();
    expect(paths['/__mock/calls']!.get!.parameters!.map((p) => [p.name, p.in])).toEqual([
      ['questId', 'query'],
      ['userId', 'query'],
      ['subdomain', 'query'],
      ['outcome', 'query'],
    ]);
    const advance = paths['/__mock/clock/advance']!.post!.requestBody!;
    expect(advance.content['application/json'].schema.required).toEqual(['ms']);
    const refused = await fetch(`${server.url}/__mock/calls?outcome=bogus`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(/outcome/);
  });

  it('writes a curl line per route', () => {
    const advance = CONTROL_ROUTES.find((route) => route.path === '/__mock/clock/advance')!;
    expect(controlExample(advance, 'http://127.0.0.1:4000')).toBe(
      `curl -X POST 'http://127.0.0.1:4000/__mock/clock/advance' -H 'content-type: application/json' -d '{"ms":60000}'`,
    );
  });
});
