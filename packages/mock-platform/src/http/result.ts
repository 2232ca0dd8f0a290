import type { ApiFailure } from './errors.js';

/** A 200 answer with a JSON body. */
export interface JsonResult<T> {
  kind: 'json';
  body: T;
}

/** A 200 answer without content. */
export interface EmptyResult {
  kind: 'empty';
}

/** What a route handler answers. */
export type RouteResult<T = unknown> = JsonResult<T> | EmptyResult | ApiFailure;

/** 200 with a JSON body. */
export function ok<T>(body: T): JsonResult<T> {
  return { kind: 'json', body };
}

/** 200 without content (webhook update and delete). */
export function empty(): EmptyResult {
  return { kind: 'empty' };
}
