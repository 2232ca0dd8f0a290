import type { ApiFailure } from '../errors.js';

/** A 200 answer with a JSON body (201 for a creation the contract answers so). */
export interface JsonResult<T> {
  kind: 'json';
  body: T;
  status?: 201;
}

/**
 * A 200 answer whose JSON text is already made: the list routes join the cached texts of their
 * items (views/json-cache.ts) instead of serializing a page of 100 each time.
 */
export interface JsonTextResult {
  kind: 'json-text';
  text: string;
}

/** A 200 answer without content. */
export interface EmptyResult {
  kind: 'empty';
}

/** What a route handler answers. */
export type RouteResult<T = unknown> = JsonResult<T> | JsonTextResult | EmptyResult | ApiFailure;

/** 200 with a JSON body. */
export function ok<T>(body: T): JsonResult<T> {
  return { kind: 'json', body };
}

/** 201 with a JSON body: the operations whose contract says `status: 201`. */
export function created<T>(body: T): JsonResult<T> {
  return { kind: 'json', body, status: 201 };
}

/** 200 with JSON text made by the caller (it must be the JSON of the operation's answer). */
export function okText(text: string): JsonTextResult {
  return { kind: 'json-text', text };
}

/** 200 without content (webhook update and delete). */
export function empty(): EmptyResult {
  return { kind: 'empty' };
}
