import { describe, expect, it } from 'vitest';
import { createMockPlatform } from '../platform.js';
import { type buildControlOpenApi, CONTROL_ROUTES, controlExample } from './catalog.js';

describe('the control routes catalogue', () => {
  it('names only routes the mock serves', async () => {
    const platform = createMockPlatform({ endpointChecks: false, rateLimit: false });
    for (const route of CONTROL_ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name) =>
        name === 'subdomain' ? 'demo' : 'unknown',
      );
      const response = await platform.fetch(
        new Request(`http://127.0.0.1:4000${path}`, {
          method: route.method,
          ...(route.method === 'GET' || route.method === 'DELETE'
            ? {}
            : { headers: { 'content-type': 'application/json' }, body: '{}' }),
        }),
      );
      // The event stream never ends by itself: its head is enough.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        expect(response.status).toBe(200);
        await response.body?.cancel();
        continue;
      }
      const text = await response.text();
      expect(text, `${route.method} ${route.path}`).not.toMatch(/No route for/);
    }
  });

  it('is served as an OpenAPI document with an example request per route', async () => {
    const platform = createMockPlatform({ endpointChecks: false });
    const response = await platform.fetch(new Request('http://127.0.0.1:4000/__mock/openapi.json'));
    expect(response.status).toBe(200);
    const document = (await response.json()) as ReturnType<typeof buildControlOpenApi> & {
      paths: Record<string, Record<string, { summary: string; 'x-example': string }>>;
    };
    expect(document.openapi).toBe('3.1.0');
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(CONTROL_ROUTES.length);
    for (const operation of operations) expect(operation['x-example']).toMatch(/^curl /);
  });

  it('writes a curl line per route', () => {
    const advance = CONTROL_ROUTES.find((route) => route.path === '/__mock/clock/advance')!;
    expect(controlExample(advance, 'http://127.0.0.1:4000')).toBe(
      `curl -X POST 'http://127.0.0.1:4000/__mock/clock/advance' -H 'content-type: application/json' -d '{"ms":60000}'`,
    );
  });
});
