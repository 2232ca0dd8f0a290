import type { z } from 'zod';
import { apiError } from '../errors.js';
import { BODY_TOO_LARGE, readBodyText } from '../http/body.js';
import { checkBody } from '../http/body-check.js';
import { toResponse } from '../http/pipeline.js';
import { queryParams } from '../http/query.js';
import { parseWith } from '../http/validate.js';

// Shared by the service-side control routes: bodies and queries are validated with zod like the
// public routes, and failures answer in the same {message, issues} shape.

/** The parsed value, or the 400 answer to send. */
export type Read<T> = { ok: true; data: T } | { ok: false; response: Response };

/** Reads a JSON body with a schema; an empty body reads as `{}` (every field optional). */
export async function readBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<Read<z.output<S>>> {
  const text = await readBodyText(request);
  if (text === null) return { ok: false, response: toResponse(apiError(400, BODY_TOO_LARGE)) };
  let value: unknown = {};
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      return {
        ok: false,
        response: toResponse(apiError(400, 'The request body is not valid JSON')),
      };
    }
  }
  const parsed = parseWith(schema, value, 'body');
  if (parsed.ok) return parsed;
  // A refused body names its unknown fields, with the declared one they may mean (`user`: userId).
  const checked = checkBody(schema, value);
  return { ok: false, response: toResponse((checked.ok ? parsed : checked).failure) };
}

/** Reads the query string with a schema (a repeated parameter counts with its first value). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): Read<z.output<S>> {
  const parsed = parseWith(schema, queryParams(request.url), 'query');
  return parsed.ok ? parsed : { ok: false, response: toResponse(parsed.failure) };
}

/** The 404 of a subdomain that names no community. */
export function communityNotFound(subdomain: string): Response {
  return toResponse(apiError(404, `Community "${subdomain}" not found`));
}
