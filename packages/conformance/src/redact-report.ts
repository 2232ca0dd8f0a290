import { REDACTED } from '@questkit/core/api';

// An endpoint can say anything back, the key it was sent included (an echo, a debug page, a
// redirect that carries it). Every string of a report that can hold the endpoint's words is
// redacted once, at the end of the run, so no reporter (human, JSON, JUnit) nor the mock's record
// can print a secret. What the run wrote itself is left as it is: the ids and titles, the request
// as sent (already recorded with the secret redacted, a made-up wrong key shown) and the curl
// line (it reads the secret from the shell).
const OURS = new Set([
  'id',
  'title',
  'group',
  'tier',
  'status',
  'rule',
  'severity',
  'code',
  'sent',
  'curl',
]);

/**
 * `report` with each of `secrets` shown as `REDACTED` in every string the endpoint can have put
 * there (answers, findings, reasons, headline, advice), as written, as a JSON string escapes it,
 * and URL-encoded (a redirect's query). Only whole occurrences: a secret with a letter or digit
 * right before or after it is part of another word (a short test key "k" inside "key").
 */
export function redactReport<T>(report: T, secrets: readonly (string | undefined)[]): T {
  const given = secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
  if (given.length === 0) return report;
  const forms = given.flatMap((secret) => [
    secret,
    JSON.stringify(secret).slice(1, -1),
    encodeURIComponent(secret),
  ]);
  // Longest first, so a secret that contains another is hidden whole.
  const ordered = [...new Set(forms)].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(
    `(?<![A-Za-z0-9])(?:${ordered.map(escapeRegExp).join('|')})(?![A-Za-z0-9])`,
    'g',
  );
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(pattern, REDACTED);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, OURS.has(key) ? field : walk(field)]),
    );
  };
  return walk(report) as T;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
