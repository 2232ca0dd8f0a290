import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { PUBLIC_PREFIX, PUBLIC_ROUTES } from '../routes/index.js';
import { createTestPlatform } from '../testkit.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

type Operation = {
  operationId: string;
  parameters: Array<{
    name: string;
    in: string;
    required: boolean;
    schema: Record<string, unknown>;
  }>;
  responses: Record<string, unknown>;
  requestBody?: unknown;
};

function operation(document: OpenApiDocument, path: string, method: string): Operation {
  return document.paths[`${PUBLIC_PREFIX}${path}`]?.[method] as Operation;
}

describe('GET /openapi.json', () => {
  it('serves an OpenAPI 3.1 document that the parser validates', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', '/openapi.json', { key: null });
    expect(answer.status).toBe(200);
    const document = answer.body as OpenApiDocument;
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every public route with its parameters and statuses', () => {
    const document = buildOpenApiDocument(PUBLIC_ROUTES);
    for (const route of PUBLIC_ROUTES) {
      const op = operation(document, route.path, route.method);
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
      expect(Object.keys(op.responses).sort()).toEqual(
        [String(route.status ?? 200), ...new Set([...route.errors, 500].map(String))].sort(),
      );
      expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual([
        'subdomain',
        ...[...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      ]);
      expect(Boolean(op.requestBody)).toBe(route.body !== undefined);
    }
    expect(Object.keys(document.paths)).toHaveLength(23);
  });

  it('carries the limits of core’s schemas', () => {
    const document = buildOpenApiDocument(PUBLIC_ROUTES);
    const invites = operation(document, '/users/{userId}/invites', 'get');
    const page = invites.parameters.find((p) => p.name === 'page')!;
    expect(page).toMatchObject({
      in: 'query',
      required: true,
      schema: { minimum: 1, maximum: 1000 },
    });
    expect(invites.parameters.find((p) => p.name === 'page_size')).toMatchObject({
      required: false,
      schema: { maximum: 100, default: 10 },
    });
    const body = document.components.schemas.CreateQuestBody as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(body.properties.name).toMatchObject({ maxLength: 100 });
    expect(body.properties.claimLimit).toMatchObject({ maximum: 2147483647 });
    expect(body.required.sort()).toEqual([
      'categoryId',
      'conditionOperator',
      'name',
      'published',
      'recurrence',
    ]);
    expect(JSON.stringify(document)).toContain('"$ref":"#/components/schemas/RichTextNode"');
    const update = operation(document, '/webhooks/{webhookId}', 'patch');
    expect(update.parameters.find((p) => p.name === 'x-svc-confirmation-token')).toMatchObject({
      in: 'header',
      required: false,
      schema: { format: 'uuid' },
    });
  });
});

/** Whether a schema or any schema inside it has the JSON type null. */
function hasNullType(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasNullType);
  if (schema === null || typeof schema !== 'object') return false;
  const { type, ...rest } = schema as { type?: unknown };
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  return Object.entries(rest).some(([key, value]) => key !== 'enum' && hasNullType(value));
}

describe('query parameters', () => {
  const document = buildOpenApiDocument(PUBLIC_ROUTES);
  const query = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).flatMap((op) =>
      (op as Operation).parameters
        .filter((p) => p.in === 'query')
        .map((p) => ({ ...p, operationId: (op as Operation).operationId })),
    ),
  );

  it('have no null type: a query string cannot carry one', () => {
    expect(query.length).toBeGreaterThan(10);
    for (const parameter of query) {
      expect(hasNullType(parameter.schema), `${parameter.operationId} ${parameter.name}`).toBe(
        false,
      );
    }
  });

  it('say that an empty or absent cursor means the first page, and accept what the mock accepts', () => {
    const cursors = query.filter((p) => p.name === 'cursor');
    expect(cursors.map((p) => p.operationId).sort()).toEqual([
      'listQuests',
      'listReviews',
      'listWebhooks',
    ]);
    for (const cursor of cursors) {
      expect((cursor as { description?: string }).description).toContain(
        'Empty or absent means the first page',
      );
    }
    const quests = cursors.find((p) => p.operationId === 'listQuests')!;
    expect(quests.schema.anyOf).toContainEqual({ type: 'string', enum: ['', 'null'] });
  });

  it('carry examples of their own type', () => {
    const typed = query.filter((p) => (p as { example?: unknown }).example !== undefined);
    expect(typed.length).toBeGreaterThan(5);
    for (const parameter of typed) {
      const example = (parameter as { example?: unknown }).example;
      const types = [parameter.schema, ...((parameter.schema.anyOf as { type?: unknown }[]) ?? [])]
        .map((schema) => schema.type)
        .filter(Boolean);
      const label = `${parameter.operationId} ${parameter.name}`;
      if (types.includes('integer')) expect(Number.isInteger(example), label).toBe(true);
      else if (types.includes('boolean')) expect(typeof example, label).toBe('boolean');
      else expect(typeof example, label).toBe('string');
    }
  });
});

describe('GET /docs', () => {
  it('renders a page that loads the document from /openapi.json', async () => {
    const { call } = createTestPlatform();
    const answer = await call('GET', '/docs', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
    expect(answer.text).toContain('href="/openapi.json"');
    // Rendered on the server: no script, and a policy that runs none.
    expect(answer.text).not.toContain('<script');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    // Every operation and every named schema is on the page.
    const document = buildOpenApiDocument(PUBLIC_ROUTES);
    for (const route of PUBLIC_ROUTES)
      expect(answer.text).toContain(`id="op-${route.operationId}"`);
    for (const name of Object.keys(document.components.schemas))
      expect(answer.text).toContain(`id="schema-${name}"`);
    // The description shows the placeholder as written (it rendered as "Bearer ." before).
    expect(answer.text).toContain('authorization: Bearer &lt;member token issued by the mock&gt;');
  });

  it('escapes every text of the document', () => {
    const document = buildOpenApiDocument(PUBLIC_ROUTES);
    const hostile = '<img src=x onerror=alert(1)> "quoted" & `code`';
    document.info.description = hostile;
    const op = Object.values(document.paths)[0]!.get as { summary: string };
    op.summary = hostile;
    const html = renderDocsPage(document);
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; <code>code</code>',
    );
  });

  it('shows an icon, as the dashboard does, instead of a 404', async () => {
    const { call } = createTestPlatform();
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const answer = await call('GET', path, { key: null });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/svg+xml');
      expect(answer.text).toMatch(/^<svg /);
    }
    expect((await call('GET', '/docs', { key: null })).text).toContain('href="/favicon.svg"');
    expect((await call('GET', '/__mock/dashboard', { key: null })).text).toContain(
      'href="/favicon.svg"',
    );
  });
});

describe('request examples', () => {
  it('give every operation a whole request, and every body example passes the route schema', async () => {
    const { PUBLIC_ROUTES } = await import('../routes/index.js');
    const { REQUEST_EXAMPLES } = await import('./examples.js');
    const document = buildOpenApiDocument(PUBLIC_ROUTES, { serverUrl: 'http://127.0.0.1:4000' });
    for (const route of PUBLIC_ROUTES) {
      const operation = document.paths[`/public/communities/{subdomain}${route.path}`]?.[
        route.method
      ] as {
        'x-codeSamples': { source: string }[];
      };
      expect(operation['x-codeSamples'][0]?.source, route.operationId).toMatch(/^curl /);
      const example = REQUEST_EXAMPLES[route.operationId];
      expect(example, route.operationId).toBeDefined();
      if (route.body)
        expect(route.body.safeParse(example?.body).success, route.operationId).toBe(true);
      if (route.query)
        expect(route.query.safeParse(example?.query ?? {}).success, route.operationId).toBe(true);
    }
  });
});
