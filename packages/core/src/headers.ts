/**
 * Request headers as adapters hold them: Web `Headers`, or Node's lower-cased record whose
 * values may be arrays for repeated headers.
 */
export type HeaderSource =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined };

/**
 * Reads one header. A repeated header yields its values joined by ", ", as `Headers.get` does,
 * so two API keys sent at once never match a configured key.
 */
export function getHeader(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const value = (headers as Record<string, string | readonly string[] | undefined>)[name];
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.join(', ');
}
