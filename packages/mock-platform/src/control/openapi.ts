import { type JsonSchema, toOpenApiSchema } from '@questkit/core/openapi';
import type { ControlRoute, ControlRouteDefinition } from './route.js';

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

/** `post /__mock/clock/advance` -> `postClockAdvance`; `{id}` -> `ById`. */
function operationId(route: ControlRoute): string {
  const words = route.path
    .replace('/__mock', '')
    .replace(/\{(\w+)\}/g, 'By-$1')
    .split(/[/-]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return `${route.method.toLowerCase()}${words.join('')}`;
}

/** The query schema's properties as OpenAPI parameters. */
function queryParameters(route: ControlRouteDefinition, components: Record<string, JsonSchema>) {
  if (!route.querySchema) return [];
  const schema = toOpenApiSchema(route.querySchema, 'input', components);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }),
  );
}

/** The control routes as an OpenAPI 3.1 document, with an example request for each. */
export function controlOpenApi(
  routes: readonly ControlRouteDefinition[],
  baseUrl?: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, JsonSchema> = {};
  for (const route of routes) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...(name === 'subdomain' ? { example: 'demo' } : {}),
    }));
    const parameters = [...params, ...queryParameters(route, components)];
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      tags: ['control'],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.bodySchema
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: toOpenApiSchema(route.bodySchema, 'input', components),
                  ...(route.example !== undefined ? { example: route.example } : {}),
                },
              },
            },
          }
        : {}),
      responses: {
        '200': { description: 'Done; the body says what happened.' },
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
    ...(Object.keys(components).length > 0 ? { components: { schemas: components } } : {}),
  };
}
