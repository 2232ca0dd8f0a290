import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { API_OPERATIONS, API_PREFIX, OPERATION_IDS } from '../api/index.js';
import { buildOpenApiDocument, type JsonSchema, toOpenApiSchema } from './index.js';

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; example?: unknown }>;
  responses: Record<string, unknown>;
  'x-codeSamples'?: Array<{ source: string }>;
};

const operationOf = (document: ReturnType<typeof buildOpenApiDocument>, id: string) => {
  const { method, path } = API_OPERATIONS[id as keyof typeof API_OPERATIONS];
  return document.paths[`${API_PREFIX}${path}`]?.[method] as Operation;
};

describe('buildOpenApiDocument', () => {
  it('documents every operation of the contract, with its declared errors, without the mock', () => {
    const document = buildOpenApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/' }]);
    for (const id of OPERATION_IDS) {
      const operation = operationOf(document, id);
      expect(operation?.operationId, id).toBe(id);
      for (const status of API_OPERATIONS[id].errors)
        expect(operation.responses[String(status)], `${id} ${status}`).toEqual({
          $ref: `#/components/responses/Error${status}`,
        });
    }
    expect(Object.keys(document.components.responses)).toEqual([
      'Error400',
      'Error401',
      'Error403',
      'Error404',
      'Error409',
      'Error429',
      'Error500',
    ]);
  });

  it('names no community, key or identifier unless given examples', () => {
    const json = JSON.stringify(buildOpenApiDocument());
    expect(json).not.toContain('x-codeSamples');
    expect(json).not.toContain('"example"');
    expect(json).not.toContain('/__mock/');
  });

  it('adds the examples given: parameter examples in their type and a curl line per operation', () => {
    const document = buildOpenApiDocument({
      serverUrl: 'https://api.example.com',
      examples: {
        subdomain: 'acme',
        apiKey: 'example-key',
        requests: { getLeaderboard: { query: { page: '2', limit: '5' } } },
      },
    });
    const leaderboard = operationOf(document, 'getLeaderboard');
    expect(leaderboard.parameters.find((p) => p.name === 'subdomain')?.example).toBe('acme');
    expect(leaderboard.parameters.find((p) => p.name === 'limit')?.example).toBe(5);
    expect(leaderboard['x-codeSamples']?.[0]?.source).toBe(
      "curl 'https://api.example.com/public/communities/acme/leaderboard?page=2&limit=5' -H 'x-api-key: example-key'",
    );
    // An operation without its own example still gets a whole request, its ids as placeholders.
    expect(operationOf(document, 'getUser')['x-codeSamples']?.[0]?.source).toContain(
      '/public/communities/acme/users/<userId>',
    );
  });

  it('takes its own words for the title, the description and member tokens', () => {
    const document = buildOpenApiDocument({
      title: 'Acme API',
      description: 'Ours.',
      memberTokenDescription: 'A token of ours.',
      version: '2.0.0',
    });
    expect(document.info).toEqual({ title: 'Acme API', version: '2.0.0', description: 'Ours.' });
    expect(document.components.securitySchemes.memberToken).toMatchObject({
      description: 'A token of ours.',
    });
  });
});

describe('toOpenApiSchema', () => {
  it('moves shared definitions into components and points references there', () => {
    const components: Record<string, JsonSchema> = {};
    const Item = z.object({ id: z.string() }).meta({ id: 'Item' });
    const schema = toOpenApiSchema(z.object({ items: z.array(Item) }), 'output', components);
    expect(components.Item).toMatchObject({ type: 'object' });
    expect(JSON.stringify(schema)).toContain('"$ref":"#/components/schemas/Item"');
    expect(schema.$schema).toBeUndefined();
  });

  it('refuses two different schemas under one name instead of keeping either', () => {
    const components: Record<string, JsonSchema> = { Item: { type: 'string' } };
    const Item = z.object({ id: z.string() }).meta({ id: 'Item' });
    expect(() => toOpenApiSchema(z.array(Item), 'output', components)).toThrow(
      '[@questkit/core] two different schemas are named Item',
    );
    expect(components.Item).toEqual({ type: 'string' });
  });
});
