import * as z from 'zod';

/**
 * The path of the first key of `value` that `schema` does not declare, at any depth, or null.
 *
 * Core's request schemas tolerate unknown keys (the platform may add fields) and zod drops them
 * on parse, so a misspelt field (`rewards[0].valeu`) would vanish without a word. The mock
 * refuses them instead. Objects declared loose (task settings, rich text) keep their extra keys
 * and are not searched. In a union, the option the value matches is searched.
 *
 * Call it on a value the schema accepted: it walks the schema and the value side by side.
 */
export function firstUnknownKey(schema: z.ZodType, value: unknown): (string | number)[] | null {
  return search(schema, value, []);
}

function search(
  schema: z.ZodType,
  value: unknown,
  path: (string | number)[],
): (string | number)[] | null {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    // A loose object (catchall unknown) keeps what it does not declare.
    if (inner.def.catchall) return null;
    const shape = inner.shape as Record<string, z.ZodType>;
    for (const [key, child] of Object.entries(value)) {
      const declared = shape[key];
      if (!declared) return [...path, key];
      const found = search(declared, child, [...path, key]);
      if (found) return found;
    }
    return null;
  }
  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return null;
    for (const [index, item] of value.entries()) {
      const found = search(inner.element as z.ZodType, item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (inner instanceof z.ZodUnion) {
    const options = inner.options as z.ZodType[];
    const matched = options.find((option) => option.safeParse(value).success);
    return matched ? search(matched, value, path) : null;
  }
  return null;
}

/** The schema under optional, nullable, default and pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  // Wrappers nest a few levels at most; the bound keeps a cyclic schema from looping.
  for (let depth = 0; depth < 16; depth += 1) {
    if (
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable ||
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault
    ) {
      current = current.def.innerType as z.ZodType;
    } else if (current instanceof z.ZodPipe) {
      current = (
        current.def.in instanceof z.ZodTransform ? current.def.out : current.def.in
      ) as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}
