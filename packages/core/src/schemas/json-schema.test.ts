import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as schemas from './index.js';

// The mock platform builds its OpenAPI 3.1 document from these schemas with z.toJSONSchema, so
// every exported schema must serialize, for request bodies (input) and responses (output) alike.
// The claim's schemas are zod mini ones: `$ZodType` is what classic and mini schemas share.
const exported = Object.entries(schemas as Record<string, unknown>).filter(
  (entry): entry is [string, z.core.$ZodType] => entry[1] instanceof z.core.$ZodType,
);

type JsonSchema = {
  required?: string[];
  properties?: Record<string, JsonSchema>;
  $defs?: Record<string, unknown>;
};

describe('JSON Schema', () => {
  it('finds every schema the index exports', () => {
    const names = exported.map(([name]) => name);
    expect(names.length).toBe(
      Object.keys(schemas).filter((name) => name.endsWith('Schema')).length,
    );
    expect(names).toEqual(
      expect.arrayContaining(['UserSchema', 'RichTextNodeSchema', 'VerificationRequestSchema']),
    );
  });

  describe.each(['input', 'output'] as const)('io %s', (io) => {
    it.each(exported)('serializes %s', (_name, schema) => {
      const json = z.toJSONSchema(schema, { io });
      expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    });
  });

  it('keeps required and nullable apart', () => {
    const user = z.toJSONSchema(schemas.UserSchema) as JsonSchema;
    expect(user.required).toEqual(expect.arrayContaining(['id', 'avatar', 'deletedAt', 'role']));
    expect(user.required).not.toContain('invites');
    expect(user.required).not.toContain('karma');
    const social = z.toJSONSchema(schemas.UserBySocialSchema) as JsonSchema;
    expect(social.required).toEqual(expect.arrayContaining(['karma', 'role']));
    expect(social.properties).not.toHaveProperty('avatar');
  });

  it('shows defaulted request fields as optional on input', () => {
    const body = z.toJSONSchema(schemas.QuestCreateRequestSchema, { io: 'input' }) as JsonSchema;
    expect(body.required?.sort()).toEqual(
      ['categoryId', 'conditionOperator', 'name', 'published', 'recurrence'].sort(),
    );
  });

  it('carries the limits of a query parameter', () => {
    const query = z.toJSONSchema(schemas.InviteListQuerySchema, { io: 'input' }) as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(query.properties.page).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(query.properties.page_size).toMatchObject({ maximum: 100, default: 10 });
  });

  it('references the rich-text node recursively inside a quest', () => {
    const quest = z.toJSONSchema(schemas.QuestListItemSchema) as JsonSchema;
    expect(Object.keys(quest.$defs ?? {})).toHaveLength(1);
    expect(JSON.stringify(quest.properties?.description)).toContain('"$ref":"#/$defs/');
  });
});
