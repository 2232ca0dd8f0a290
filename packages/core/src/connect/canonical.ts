/** The query parameter that carries a connect signature. */
export const SIGNATURE_PARAM = 'signature';

/**
 * Parses `input` as an absolute WHATWG URL into a fresh object (a URL given is copied, never
 * mutated). Null when it does not parse.
 */
export function parseUrl(input: unknown): URL | null {
  if (input instanceof URL) return new URL(input.href);
  if (typeof input !== 'string') return null;
  try {
    return new URL(input);
  } catch {
    return null;
  }
}

/**
 * Rewrites `url` in place into the canonical form that signer and verifier agree on: no
 * fragment, no `signature` parameter, and the query re-serialized by `URLSearchParams`, so the
 * way a client encoded it (`%20` or `+`, `%2F` or `/`) cannot change what is signed. With no
 * parameter left there is no `?` at all. Returns the parameters that remain.
 */
export function canonicalize(url: URL): URLSearchParams {
  url.hash = '';
  const params = new URLSearchParams(url.search);
  params.delete(SIGNATURE_PARAM);
  url.search = params.toString();
  return params;
}

/**
 * The exact received string with the fragment dropped and every `signature=...` part taken out
 * of the query as text, for signers that build the URL by hand instead of through `URL`.
 */
export function rawSignedString(received: string): string {
  const hash = received.indexOf('#');
  const withoutFragment = hash === -1 ? received : received.slice(0, hash);
  const question = withoutFragment.indexOf('?');
  if (question === -1) return withoutFragment;
  const kept = withoutFragment
    .slice(question + 1)
    .split('&')
    .filter((part) => {
      const equals = part.indexOf('=');
      return (equals === -1 ? part : part.slice(0, equals)) !== SIGNATURE_PARAM;
    });
  const base = withoutFragment.slice(0, question);
  return kept.length === 0 ? base : `${base}?${kept.join('&')}`;
}
