import type { z } from 'zod';
import { ErrorBodySchema } from '../api/errors.js';
import { SVC_HEADER_SCHEMAS } from '../api/headers.js';
import { API_OPERATIONS } from '../api/index.js';
import {
  API_ERROR_STATUSES,
  API_PREFIX,
  type ApiErrorStatus,
  type ApiOperation,
} from '../api/operation.js';
import { exampleCurl, type OpenApiExamples } from './examples.js';
import { type JsonSchema, toOpenApiSchema } from './json-schema.js';

/** An OpenAPI 3.1 document, as plain JSON. */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The operations to document (default every operation of the contract, `API_OPERATIONS`). */
  operations?: readonly ApiOperation[];
  /** The server URL the document names (default `/`, the origin serving the document). */
  serverUrl?: string;
  /** The document's version (default `0.1.0`). */
  version?: string;
  /** The document's title (default `Community Platform Public API`). */
  title?: string;
  /** The document's description (default: how errors look and which credentials are taken). */
  description?: string;
  /** The description of the `memberToken` credential. */
  memberTokenDescription?: string;
  /**
   * A request example per operation, on one community's data: adds parameter and body examples
   * and a curl line per operation (`x-codeSamples`). Default none: the document then names no
   * identifier or key of any community.
   */
  examples?: OpenApiExamples;
}

const STATUS_TEXT: Record<ApiErrorStatus, string> = {
  400: 'Validation error: a parameter, header or body field is missing or wrong (the message names it).',
  401: 'No credential, or an unknown API key or invalid member token.',
  403: 'Valid credential, but of another community, a read-only key for a write, or a role that is not allowed.',
  404: 'Unknown community, user, webhook or association.',
  409: 'Conflict with the current state (a webhook uri already used, the webhook maximum reached).',
  429: 'Rate limit of the credential reached; Retry-After says when to retry.',
  500: 'Internal error.',
};

function properties(json: JsonSchema): Array<[string, JsonSchema]> {
  return Object.entries((json.properties ?? {}) as Record<string, JsonSchema>);
}

type QueryParameter = { name: string; in: string; schema: JsonSchema; example?: unknown };

const isNullSchema = (schema: unknown) =>
  typeof schema === 'object' && schema !== null && (schema as JsonSchema).type === 'null';

/**
 * A query parameter's schema as tools read it: a query string cannot carry JSON null, so a
 * `null` branch (zod's nullable) is dropped; the words the mock takes for "no value" (`''`,
 * `'null'`) are added as their own string branch when the rest of the schema would refuse them
 * (a uuid cursor), so validating tools accept what the mock accepts.
 */
function queryParameterSchema(schema: JsonSchema, emptyWords: readonly string[]): JsonSchema {
  let rest: JsonSchema = schema;
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as unknown[]).filter((branch) => !isNullSchema(branch));
    const { anyOf: _dropped, ...outer } = schema;
    rest =
      branches.length === 1
        ? { ...outer, ...(branches[0] as JsonSchema) }
        : { ...outer, anyOf: branches };
  } else if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((type) => type !== 'null');
    rest = { ...schema, type: types.length === 1 ? types[0] : types };
  }
  const plainString = rest.type === 'string' && !rest.format && !rest.pattern && !rest.enum;
  if (emptyWords.length === 0 || plainString) return rest;
  const { default: fallback, ...value } = rest;
  return {
    ...(fallback !== undefined ? { default: fallback } : {}),
    anyOf: [value, { type: 'string', enum: [...emptyWords] }],
  };
}

/** An example in the parameter's own type: `20`, not `"20"`, for an integer. */
function exampleOfType(value: string, schema: JsonSchema): unknown {
  const types = [schema, ...((schema.anyOf as JsonSchema[] | undefined) ?? [])].map((s) => s.type);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The OpenAPI 3.1 document of the public API, generated from the contract's operations and zod
 * schemas: every parameter, body and answer of the document is the schema a server validates
 * with. Web-standard and plain JSON: serve it, write it to a file, or hand it to a tool.
 *
 * @example
 * const document = buildOpenApiDocument({ serverUrl: 'https://api.example.com' });
 * Object.keys(document.paths).length; // 23 paths, 29 operations
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const operations: readonly ApiOperation[] = options.operations ?? Object.values(API_OPERATIONS);
  const examples = options.examples;
  const schemas: Record<string, JsonSchema> = {};
  schemas.Error = toOpenApiSchema(ErrorBodySchema, 'output', schemas);
  const responses: Record<string, unknown> = {};
  for (const status of API_ERROR_STATUSES) {
    const response: Record<string, unknown> = {
      description: STATUS_TEXT[status],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    if (status === 429) {
      response.headers = {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
      };
    }
    responses[`Error${status}`] = response;
  }

  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of operations) {
    tags.add(route.tag);
    const example = examples?.requests[route.operationId] ?? {};
    const parameters: unknown[] = [];
    for (const [name, schema] of properties(toOpenApiSchema(route.params, 'input', schemas))) {
      parameters.push({ name, in: 'path', required: true, schema });
    }
    if (route.query) {
      const json = toOpenApiSchema(route.query, 'input', schemas);
      const required = new Set((json.required ?? []) as string[]);
      const query: z.ZodType = route.query;
      for (const [name, schema] of properties(json)) {
        const { description, ...rest } = schema;
        // What the mock takes as "no value" for this parameter, from its own schema.
        const emptyWords = ['', 'null'].filter(
          (word) => query.safeParse({ ...example.query, [name]: word }).success,
        );
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          ...(typeof description === 'string' ? { description } : {}),
          schema: queryParameterSchema(rest, emptyWords),
        });
      }
    }
    for (const header of route.headers ?? []) {
      const { schema, description } = SVC_HEADER_SCHEMAS[header];
      parameters.push({
        name: header,
        in: 'header',
        required: false,
        description,
        schema: toOpenApiSchema(schema, 'input', schemas),
      });
    }
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: route.apiKeyOnly ? [{ apiKey: [] }] : [{ apiKey: [] }, { memberToken: [] }],
      parameters,
      responses: {
        [String(route.status ?? 200)]: route.response
          ? {
              description: route.status === 201 ? 'Created' : 'OK',
              content: {
                'application/json': {
                  schema: { $ref: `#/components/schemas/${route.response.name}` },
                },
              },
            }
          : { description: 'Done; no content.' },
        ...Object.fromEntries(
          [...new Set([...route.errors, 500])].map((status) => [
            String(status),
            { $ref: `#/components/responses/Error${status}` },
          ]),
        ),
      },
    };
    if (route.response && !schemas[route.response.name]) {
      schemas[route.response.name] = toOpenApiSchema(route.response.schema, 'output', schemas);
    }
    for (const parameter of parameters as QueryParameter[]) {
      const value =
        parameter.in === 'path'
          ? (example.params?.[parameter.name] ??
            (parameter.name === 'subdomain' ? examples?.subdomain : undefined))
          : parameter.in === 'query'
            ? example.query?.[parameter.name]
            : undefined;
      if (value !== undefined) parameter.example = exampleOfType(value, parameter.schema);
    }
    if (route.body) {
      const name = `${capitalize(route.operationId)}Body`;
      schemas[name] = toOpenApiSchema(route.body, 'input', schemas);
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: { $ref: `#/components/schemas/${name}` },
            ...(example.body !== undefined ? { example: example.body } : {}),
          },
        },
      };
    }
    const path = `${API_PREFIX}${route.path}`;
    if (examples) {
      // A whole request per operation, as a docs page shows it (the x-codeSamples convention).
      operation['x-codeSamples'] = [
        {
          lang: 'Shell',
          label: 'curl',
          source: exampleCurl(
            route.method,
            path,
            example,
            examples,
            options.serverUrl ?? 'http://127.0.0.1:4000',
          ),
        },
      ];
    }
    paths[path] = { ...paths[path], [route.method]: operation };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'Community Platform Public API',
      version: options.version ?? '0.1.0',
      description:
        options.description ??
        'The public API of the community platform. Errors answer {"message": string} ' +
          '(plus "issues" on validation errors). Credentials: x-api-key (per community, read-only or read-write) ' +
          'or authorization: Bearer <member token>.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      responses,
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'A community API key.',
        },
        memberToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            options.memberTokenDescription ??
            'A member token: a JWT naming one member of the community.',
        },
      },
    },
  };
}
