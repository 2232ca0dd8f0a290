import type { ApiErrorStatus } from '@questkit/core/api';
import parsePreferHeader from 'parse-prefer-header';
import { type ApiFailure, apiError, invalid } from '../errors.js';

// Errors on demand, as Prism offers them: `Prefer: code=429` makes a public route answer that
// documented error instead of running, so a client's error paths can be tested without
// arranging state. The header is parsed by the same package Prism uses (RFC 7240).

/** The words of each error the mock answers on demand: how the mock says that status. */
const ON_DEMAND_MESSAGES: Record<ApiErrorStatus, string> = {
  400: 'Invalid request',
  401: 'The x-api-key header does not match any API key',
  403: 'This route needs a read-write key or an admin of the community',
  404: 'Not found in this community',
  409: 'Conflict with the current state of the resource',
  429: 'Too many requests for this credential; retry after 1 s',
  500: 'Internal error of the mock platform',
};

/** What a request's `Prefer` header asks of a route. */
export type Preferred =
  /** No `code` preference: the request runs as usual. */
  | { kind: 'none' }
  /** A documented error, answered once the request passed authentication and validation. */
  | { kind: 'error'; failure: ApiFailure }
  /** A malformed or undocumented code: the 400 to answer. */
  | { kind: 'refused'; failure: ApiFailure };

/**
 * Reads `Prefer: code=<status>` against the error statuses a route documents. Other preferences
 * (`return=minimal`, Prism's `dynamic`) are ignored, as RFC 7240 asks of preferences a server
 * does not support; of a repeated `code`, the first counts.
 *
 * @example
 * preferredError(new Headers({ prefer: 'code=429' }), [400, 429]);
 * // { kind: 'error', failure: { kind: 'error', status: 429, ... retry-after: '1' } }
 */
export function preferredError(headers: Headers, documented: readonly ApiErrorStatus[]): Preferred {
  const header = headers.get('prefer');
  if (header === null) return { kind: 'none' };
  const code: string | true | undefined = parsePreferHeader(header).code;
  if (code === undefined) return { kind: 'none' };
  const status = typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  const asked = typeof code === 'string' ? `code=${code}` : 'code without a value';
  if (status === undefined || !documented.includes(status as ApiErrorStatus)) {
    return {
      kind: 'refused',
      failure: invalid(
        'header',
        'prefer',
        `${asked} is not an error status this operation documents; use code=${documented.join(', code=')}, or send no Prefer header for the usual answer`,
      ),
    };
  }
  const wanted = status as ApiErrorStatus;
  const headersOut: Record<string, string> = { 'preference-applied': `code=${wanted}` };
  if (wanted === 429) headersOut['retry-after'] = '1';
  return {
    kind: 'error',
    failure: apiError(
      wanted,
      `${ON_DEMAND_MESSAGES[wanted]} (answered on demand: Prefer: code=${wanted})`,
      {
        headers: headersOut,
      },
    ),
  };
}
