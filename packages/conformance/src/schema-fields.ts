import { VerificationRequestSchema } from '@questkit/core';
import * as z from 'zod';

/** One field of the verification request, found by walking the schema. */
export interface SchemaField {
  /** Dotted path from the body's root (`userId`, `accounts.discord.id`). */
  path: string;
  /** true when the field must be present whenever its parent object is. */
  required: boolean;
  /** A JSON value of the wrong type for this field. */
  wrongValue: unknown;
}

// Ordered by how often hand-written clients get it wrong: a numeric id where a string belongs.
const WRONG_VALUE_CANDIDATES: readonly unknown[] = [12345, 'questkit-wrong-type', true, null];

/**
 * Lists every field of the verification request, nested ones included, from the zod schema in
 * core: the probes for missing and wrongly typed fields follow the contract as core defines it.
 *
 * @example
 * listSchemaFields().filter((f) => f.required).map((f) => f.path);
 * // ['userId', 'communityId', 'subdomain', 'questId', 'requestId', 'accounts.discord.id', ...]
 */
export function listSchemaFields(
  // Any zod object schema, classic or mini (the claim's are mini): read through what both share.
  schema: z.core.$ZodObject = VerificationRequestSchema,
  prefix = '',
): SchemaField[] {
  const fields: SchemaField[] = [];
  for (const [key, field] of Object.entries(schema._zod.def.shape)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const required = !z.safeParse(field, undefined).success;
    const wrongValue = WRONG_VALUE_CANDIDATES.find((value) => !z.safeParse(field, value).success);
    fields.push({ path, required, wrongValue });
    const inner = unwrapOptional(field);
    if (inner._zod.def.type === 'object') {
      fields.push(...listSchemaFields(inner as z.core.$ZodObject, path));
    }
  }
  return fields;
}

function unwrapOptional(field: z.core.$ZodType): z.core.$ZodType {
  let current = field;
  // Bounded: a schema nests optional() a handful of times at most.
  for (let depth = 0; depth < 8 && current._zod.def.type === 'optional'; depth++) {
    current = (current as z.core.$ZodOptional)._zod.def.innerType;
  }
  return current;
}
