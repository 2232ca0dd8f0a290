/**
 * The platform's side of connect signing, written here from the contract with `node:crypto`
 * rather than taken from the code under test: HMAC-SHA256, lower-case hex, over the WHATWG
 * serialization of the URL without its fragment and `signature` parameters.
 */
import { createHmac } from 'node:crypto';

/** The signed form of `url`: its canonical serialization plus `signature=<hex>`. */
export function sign(url: string, secret: string): { url: string; signature: string } {
  const parsed = new URL(url);
  parsed.hash = '';
  const params = new URLSearchParams(parsed.search);
  params.delete('signature');
  parsed.search = params.toString();
  const signature = createHmac('sha256', secret).update(parsed.href).digest('hex');
  return { url: `${parsed.href}${parsed.search ? '&' : '?'}signature=${signature}`, signature };
}

/** The signature of a raw query string, signed as text (for hand-built URLs). */
export function signRaw(text: string, secret: string): { url: string; signature: string } {
  const signature = createHmac('sha256', secret).update(text).digest('hex');
  return { url: `${text}${text.includes('?') ? '&' : '?'}signature=${signature}`, signature };
}

/** Whether `url` carries a valid signature of its canonical form. */
export function hasValidSignature(url: string, secret: string): boolean {
  const parsed = new URL(url);
  const signatures = parsed.searchParams.getAll('signature');
  if (signatures.length !== 1) return false;
  return sign(url, secret).signature === signatures[0];
}
