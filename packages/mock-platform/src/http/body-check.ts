import type { z } from 'zod';
import { apiError, type ValidationIssue } from '../errors.js';
import { unknownKeys } from './unknown-keys.js';
import { type Parsed, parseWith } from './validate.js';

/** Whether `path` names a key absent from `value` (a missing field, not a wrong one). */
function isAbsent(value: unknown, path: readonly PropertyKey[]): boolean {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current === undefined && path.length > 0;
}

/**
 * Validates a JSON body with a route's schema and refuses unknown fields. One answer names every
 * problem: the missing fields, the first wrong one, and every unknown field with a "did you
 * mean" where a declared field is near, e.g. `Invalid body: missing fields name, active; unknown
 * fields url (did you mean uri?), secret`. `issues` lists each of them.
 */
export function checkBody<S extends z.ZodType>(schema: S, value: unknown): Parsed<z.output<S>> {
  const parsed = parseWith(schema, value, 'body');
  const unknown = unknownKeys(schema, value);
  if (unknown.length === 0) return parsed;
  const result = parsed.ok ? undefined : schema.safeParse(value);
  const missing: string[] = [];
  const wrong: ValidationIssue[] = [];
  for (const issue of result?.success === false ? result.error.issues : []) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'invalid_type' && isAbsent(value, issue.path)) missing.push(path);
    else wrong.push({ in: 'body', path, message: issue.message });
  }
  const unknownIssues: ValidationIssue[] = unknown.map(({ path, suggestion }) => ({
    in: 'body',
    path: path.join('.'),
    message: suggestion ? `Unknown field; did you mean ${suggestion}?` : 'Unknown field',
  }));
  const parts: string[] = [];
  if (missing.length > 0)
    parts.push(`missing ${plural('field', missing.length)} ${missing.join(', ')}`);
  if (wrong.length > 0) {
    const [first] = wrong;
    const more = wrong.length > 1 ? ` (${wrong.length - 1} more in issues)` : '';
    parts.push(`field ${first!.path || '(the body)'}: ${first!.message}${more}`);
  }
  parts.push(
    `unknown ${plural('field', unknown.length)} ${unknown
      .map(({ path, suggestion }) =>
        suggestion ? `${path.join('.')} (did you mean ${suggestion}?)` : path.join('.'),
      )
      .join(', ')}`,
  );
  return {
    ok: false,
    failure: apiError(400, `Invalid body: ${parts.join('; ')}`, {
      issues: [
        ...missing.map(
          (path): ValidationIssue => ({ in: 'body', path, message: 'Required field is missing' }),
        ),
        ...wrong,
        ...unknownIssues,
      ],
    }),
  };
}

const plural = (noun: string, count: number) => (count === 1 ? noun : `${noun}s`);
