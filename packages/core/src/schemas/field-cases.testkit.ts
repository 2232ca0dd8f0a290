// Shared by the schema tests (not a test file itself, not exported by the package): turns the
// contract's "required / nullable / optional" tables into generated vitest cases.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

/** How a field of an object schema may appear, as the contract's tables say. */
export interface FieldRules {
  /** Present and never null. */
  required?: readonly string[];
  /** Present, possibly null. */
  nullable?: readonly string[];
  /** May be absent; never null. */
  optional?: readonly string[];
  /** May be absent or null. */
  optionalNullable?: readonly string[];
}

/** A classic or a mini zod schema: both parse with `safeParse`. */
interface Schema {
  safeParse(value: unknown): z.core.util.SafeParseResult<unknown>;
}

interface ObjectSchema extends Schema {
  shape: Record<string, unknown>;
}

/** The keys of the issues a parse reports, joined by dots (`tasks.0.type`). */
export function issuePaths(schema: Schema, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

/** `sample` without `key`. */
export function without(sample: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = sample;
  return rest;
}

/** A value of another JSON type than `value`, for the wrong-type cases. */
export function wrongTypeFor(value: unknown): unknown {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'true';
  if (Array.isArray(value)) return { not: 'an array' };
  if (value !== null && typeof value === 'object') return 'not an object';
  return Symbol('unexpected');
}

/**
 * Registers the field-matrix cases of one object schema: the full `sample` (every field set,
 * none null) parses; the rules name every key of the schema; each required field is needed and
 * non-null; each nullable field accepts null but not absence; each optional field accepts
 * absence; every field rejects a value of another type; unknown keys are tolerated.
 */
export function describeFields(
  name: string,
  schema: ObjectSchema,
  sample: Record<string, unknown>,
  rules: FieldRules,
): void {
  const required = rules.required ?? [];
  const nullable = rules.nullable ?? [];
  const optional = rules.optional ?? [];
  const optionalNullable = rules.optionalNullable ?? [];

  describe(`${name} fields`, () => {
    it('accepts the full sample', () => {
      expect(issuePaths(schema, sample)).toEqual([]);
    });

    it('has exactly the fields of the contract table', () => {
      const ruled = [...required, ...nullable, ...optional, ...optionalNullable].sort();
      expect(Object.keys(schema.shape).sort()).toEqual(ruled);
      expect(Object.keys(sample).sort()).toEqual(ruled);
    });

    it.each([...required, ...nullable])('rejects a sample without %s, naming it', (key) => {
      expect(issuePaths(schema, without(sample, key))).toEqual([key]);
    });

    it.each([...required, ...optional])('rejects %s: null', (key) => {
      expect(issuePaths(schema, { ...sample, [key]: null })).toEqual([key]);
    });

    it.each([...nullable, ...optionalNullable])('accepts %s: null', (key) => {
      expect(issuePaths(schema, { ...sample, [key]: null })).toEqual([]);
    });

    it.each([...optional, ...optionalNullable])('accepts a sample without %s', (key) => {
      expect(issuePaths(schema, without(sample, key))).toEqual([]);
    });

    it.each(Object.keys(sample))('rejects %s of another type', (key) => {
      const paths = issuePaths(schema, { ...sample, [key]: wrongTypeFor(sample[key]) });
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.every((path) => path === key || path.startsWith(`${key}.`))).toBe(true);
    });

    it('tolerates unknown keys', () => {
      expect(issuePaths(schema, { ...sample, addedLater: { any: 'thing' } })).toEqual([]);
    });
  });
}

/** One boundary case: the value tried and whether it must parse. */
export type BoundaryCase = readonly [value: unknown, accepted: boolean];

/** The four cases around a range: min - 1, min, max, max + 1 (as strings when `asQuery`). */
export function boundaryCases(min: number, max: number, asQuery = false): BoundaryCase[] {
  const cases: BoundaryCase[] = [
    [min - 1, false],
    [min, true],
    [max, true],
    [max + 1, false],
  ];
  return asQuery ? cases.map(([value, ok]) => [String(value), ok] as const) : cases;
}
