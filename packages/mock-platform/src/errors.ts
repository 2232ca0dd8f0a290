import {
  API_ERROR_STATUSES,
  type ApiErrorStatus,
  type ErrorBody,
  ErrorBodySchema,
  ISSUE_LOCATIONS,
  type ValidationIssue,
  ValidationIssueSchema,
} from '@questkit/core/api';

// The error statuses and body are the contract's, in core; re-exported under the mock's names.
export {
  ErrorBodySchema,
  ISSUE_LOCATIONS,
  ValidationIssueSchema,
  type ErrorBody,
  type ValidationIssue,
};
/** The error statuses of the public API. */
export const ERROR_STATUSES = API_ERROR_STATUSES;
/** An error status of the public API. */
export type ErrorStatus = ApiErrorStatus;

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
