import type { z } from 'zod';
import { type ApiFailure, apiError, describeLocation, type ValidationIssue } from '../errors.js';

/** The outcome of a validation. */
export type Parsed<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

/**
 * Parses a value with a schema. On failure: 400 whose message names the first bad parameter or
 * field and whose `issues` list all of them.
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: ValidationIssue['in'],
): Parsed<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issues: ValidationIssue[] = result.error.issues.map((issue) => ({
    in: location,
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
  const first = issues[0]!;
  return {
    ok: false,
    failure: apiError(400, `${describeLocation(location, first.path)}: ${first.message}`, {
      issues,
    }),
  };
}
