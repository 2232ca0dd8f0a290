import { closest } from '@questkit/conformance';
import * as z from 'zod';

/** A key of the value that the schema does not declare, with the declared key it may have meant. */
export interface UnknownKey {
  path: (string | number)[];
  /** The declared key of the same object nearest to it (`url` -> `uri`), when one is near. */
  suggestion?: string;
}

/** At most this many unknown keys are reported: enough to fix a body, bounded for a hostile one. */
export const MAX_UNKNOWN_KEYS = 20;

/**
 * Every key of `value` that `schema` does not declare, at any depth, in the order of the value.
 *
 * Core's request schemas tolerate unknown keys (the platform may add fields) and zod drops them
 * on parse, so a misspelt field (`rewards[0].valeu`) would vanish without a word. The mock
 * refuses them instead, and names all of them, also when required fields are missing, so that
 * `{url}` next to a missing `uri` reads as the typo it is. Objects declared loose (task settings,
 * rich text) keep their extra keys and are not searched. In a union, the option the value
 * matches is searched; when none matches, none is.
 */
export function unknownKeys(schema: z.ZodType, value: unknown): UnknownKey[] {
  const found: UnknownKey[] = [];
  search(schema, value, [], found);
  return found;
}

function search(
  schema: z.ZodType,
  value: unknown,
  path: (string | number)[],
  found: UnknownKey[],
): void {
  if (found.length >= MAX_UNKNOWN_KEYS) return;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    // A loose object (catchall unknown) keeps what it does not declare.
    if (inner.def.catchall) return;
    const shape = inner.shape as Record<string, z.ZodType>;
    const declared = Object.keys(shape);
    for (const [key, child] of Object.entries(value)) {
      if (found.length >= MAX_UNKNOWN_KEYS) return;
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!field) {
        const absent = declared.filter((name) => !Object.hasOwn(value, name));
        // `user` for a missing `userId`: a shortened name is as likely a slip as a typo.
        const suggestion =
          closest(key, absent) ??
          (key.length >= 3
            ? absent.find((name) => name.toLowerCase().startsWith(key.toLowerCase()))
            : undefined);
        found.push(suggestion ? { path: [...path, key], suggestion } : { path: [...path, key] });
      } else {
        search(field, child, [...path, key], found);
      }
    }
    return;
  }
  if (inner instanceof z.ZodArray) {
    if (!Array.isArray(value)) return;
    for (const [index, item] of value.entries()) {
      search(inner.element as z.ZodType, item, [...path, index], found);
    }
    return;
  }
  if (inner instanceof z.ZodUnion) {
    const options = inner.options as z.ZodType[];
    const matched = options.find((option) => option.safeParse(value).success);
    if (matched) search(matched, value, path, found);
  }
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
