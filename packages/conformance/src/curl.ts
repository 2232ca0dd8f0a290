import type { OutgoingRequest } from './send.js';

/** Environment variable the redacted curl lines read the API key from. */
export const API_KEY_ENV = 'QUEST_API_KEY';

// A body longer than this is not pasted: a run of one repeated character is regenerated instead.
const INLINE_BODY_LIMIT = 4096;
const LONG_RUN = /^([\s\S]*?)(x{1024,})([\s\S]*)$/;

/** Quotes a string for a POSIX shell. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A copy-paste curl line that sends `request` again. An X-Api-Key header that carries
 * `redactApiKey` reads `$QUEST_API_KEY` from the shell instead, so the key is never printed.
 *
 * @example
 * toCurl({ method: 'GET', url: 'http://localhost:4010/verify', headers: {} }, { timeoutMs: 10_000 });
 * // "curl -sS -i -m 10 \\\n  -X GET \\\n  'http://localhost:4010/verify'"
 */
export function toCurl(
  request: OutgoingRequest,
  options: { timeoutMs: number; redactApiKey?: string },
): string {
  const parts = [
    `curl -sS -i -m ${Math.max(1, Math.ceil(options.timeoutMs / 1000))}`,
    `-X ${request.method}`,
    shellQuote(request.url),
  ];
  const hasContentType = Object.keys(request.headers).some(
    (h) => h.toLowerCase() === 'content-type',
  );
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'x-api-key' && value === options.redactApiKey) {
      parts.push(`-H "${name}: $${API_KEY_ENV}"`);
    } else {
      parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
    }
  }
  const body = request.body;
  if (body === undefined) return parts.join(' \\\n  ');
  // curl adds a form content-type to any --data; an empty header value removes it.
  if (!hasContentType) parts.push(`-H 'content-type:'`);
  const run = body.length > INLINE_BODY_LIMIT ? LONG_RUN.exec(body) : null;
  if (run) {
    const [, before = '', repeated = '', after = ''] = run;
    const generator = `{ printf '%s' ${shellQuote(before)}; head -c ${repeated.length} /dev/zero | tr '\\0' x; printf '%s' ${shellQuote(after)}; }`;
    parts.push('--data-binary @-');
    return `${generator} | ${parts.join(' \\\n  ')}`;
  }
  parts.push(`--data-raw ${shellQuote(body)}`);
  return parts.join(' \\\n  ');
}
