import * as z from 'zod';
import { RichTextNodeSchema } from '../schemas/rich-text.js';

/** A JSON Schema (2020-12) object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [key: string]: unknown };

// Named shared schemas. The rich-text node is recursive: zod must place it in a definition, and
// naming it here makes that definition `#/components/schemas/RichTextNode` instead of `__schema0`.
const SHARED_IDS = new Map<z.ZodType, string>([[RichTextNodeSchema, 'RichTextNode']]);

// zod reads descriptions from its global registry; a registry passed to toJSONSchema replaces it.
// This view adds our ids on top of the global metadata without writing to the global registry.
// toJSONSchema only calls get() on it.
const metadata = {
  get(schema: z.ZodType) {
    const global = z.globalRegistry.get(schema);
    const id = SHARED_IDS.get(schema);
    return id ? { ...global, id } : global;
  },
} as unknown as z.core.$ZodRegistry<z.core.GlobalMeta>;

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')
        ? `#/components/schemas/${child.slice('#/$defs/'.length)}`
        : rewriteRefs(child);
  }
  return out;
}

/**
 * The JSON Schema of a zod schema for an OpenAPI 3.1 document: `io` input for requests (defaults
 * make fields optional), output for answers. Shared definitions are moved into `components`
 * (the object given), and references rewritten to point there. Throws an Error when two different
 * definitions would share one name.
 *
 * @example
 * const components: Record<string, JsonSchema> = {};
 * const schema = toOpenApiSchema(z.object({ id: z.uuid() }), 'input', components);
 */
export function toOpenApiSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    metadata,
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
  delete json.$defs;
  for (const [name, definition] of Object.entries(defs)) {
    const rewritten = rewriteRefs(definition) as JsonSchema;
    const existing = components[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
      throw new Error(`[@questkit/core] two different schemas are named ${name}`);
    }
    components[name] = rewritten;
  }
  return rewriteRefs(json) as JsonSchema;
}
