import { z } from 'zod';

/** The error statuses of the public API. */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 429, 500] as const;
/** An error status of the public API. */
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/** Where a bad value was found. */
export const ISSUE_LOCATIONS = ['path', 'query', 'header', 'body'] as const;

/** One problem of a request that failed validation. */
export const ValidationIssueSchema = z.object({
  in: z.enum(ISSUE_LOCATIONS),
  path: z.string().describe('The parameter or field, dotted for nested fields (tasks.0.type).'),
  message: z.string(),
});
/** One problem of a request that failed validation. */
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/** The body of every error answer: a message, plus the issues of a validation error. */
export const ErrorBodySchema = z.object({
  message: z.string().min(1),
  issues: z.array(ValidationIssueSchema).optional(),
});
/** The body of every error answer. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** A refused request: its status, body and extra headers (Retry-After). */
export interface ApiFailure {
  kind: 'error';
  status: ErrorStatus;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** A refused request with a message. */
export function apiError(
  status: ErrorStatus,
  message: string,
  extra: { issues?: ValidationIssue[]; headers?: Record<string, string> } = {},
): ApiFailure {
  const body: ErrorBody = { message };
  if (extra.issues) body.issues = extra.issues;
  return extra.headers
    ? { kind: 'error', status, body, headers: extra.headers }
    : { kind: 'error', status, body };
}

/** A 400 naming one field or parameter, with the matching issue. */
export function invalid(
  location: ValidationIssue['in'],
  path: string,
  problem: string,
): ApiFailure {
  return apiError(400, `${describeLocation(location, path)}: ${problem}`, {
    issues: [{ in: location, path, message: problem }],
  });
}

/** "query parameter page", "body field tasks.0.type", "header x-svc-mcp-client". */
export function describeLocation(location: ValidationIssue['in'], path: string): string {
  const noun = {
    path: 'path parameter',
    query: 'query parameter',
    header: 'header',
    body: 'body field',
  }[location];
  if (path === '') return location === 'body' ? 'Invalid body' : `Invalid ${location}`;
  return `Invalid ${noun} ${path}`;
}
