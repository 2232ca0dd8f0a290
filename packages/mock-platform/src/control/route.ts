import type { Context } from 'hono';
import type { z } from 'zod';
import type { MockContext } from '../context.js';
import type { MockService } from '../service/service.js';

/** One control route as the catalogue shows it: `questkit mock`'s banner and `/__mock/openapi.json`. */
export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the mock's base URL, OpenAPI style: `/__mock/clock/advance`. */
  path: string;
  summary: string;
  /** A JSON body to send, for the example. */
  example?: unknown;
  /** The example's query string, without `?`. */
  query?: string;
}

/** What a control route's handler works with. */
export interface ControlDeps {
  context: MockContext;
  service: MockService;
  /** Whether control routes need the control token (the mock is bound beyond loopback). */
  tokenRequired: boolean;
}

/** The `{name}` parameters of an OpenAPI-style path. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the path parameters, the validated query and body, Hono's context. */
export interface ControlInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  /** For the answer's helpers (json, redirect, html, server-sent events) and the request's headers. */
  c: Context;
}

/**
 * A control route, as data: the catalogue entry, the schemas the router validates the query and
 * the body with (a 400 `{message, issues}` before the handler runs, like the public routes), and
 * the handler. The router, the catalogue and `/__mock/openapi.json` are made from it.
 */
export interface ControlRouteDefinition extends ControlRoute {
  /** The query parameters; absent: the query is not read (or read by the handler as it is). */
  querySchema?: z.ZodType;
  /** The JSON body (an empty body reads as `{}`); absent: the body is not read. */
  bodySchema?: z.ZodType;
  // Method syntax on purpose: it keeps typed handlers assignable to the untyped route list.
  handle(
    input: ControlInput<Record<string, string>, unknown, unknown>,
    deps: ControlDeps,
  ): Response | Promise<Response>;
}

/**
 * A control route whose handler is typed from its path and schemas.
 *
 * @example
 * defineControlRoute({ method: 'GET', path: '/__mock/clock', summary: 'The test clock',
 *   handle: ({ c }, { context }) => c.json({ now: context.clock.now() }) });
 */
export function defineControlRoute<
  P extends string,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  route: ControlRoute & {
    path: P;
    querySchema?: Q;
    bodySchema?: B;
    handle(
      input: ControlInput<Readonly<Record<ParamNames<P>, string>>, OutputOf<Q>, OutputOf<B>>,
      deps: ControlDeps,
    ): Response | Promise<Response>;
  },
): ControlRouteDefinition {
  return route as unknown as ControlRouteDefinition;
}
