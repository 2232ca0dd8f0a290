import { describe, expect, it } from 'vitest';
import { redactReport } from './redact-report.js';

describe('redactReport', () => {
  it('hides a secret wherever the endpoint put it: as is, JSON-escaped, URL-encoded', () => {
    const secret = 'k3y "with" /odd+chars';
    const report = {
      received: {
        body: `{"echo":${JSON.stringify(secret)}}`,
        location: `https://x.example/?k=${encodeURIComponent(secret)}`,
      },
      findings: [{ rule: 'member', message: `said ${secret}.` }],
    };
    expect(redactReport(report, [secret])).toEqual({
      received: { body: '{"echo":"REDACTED"}', location: 'https://x.example/?k=REDACTED' },
      findings: [{ rule: 'member', message: 'said REDACTED.' }],
    });
  });

  it('leaves words that merely contain a short secret, and what the run wrote itself', () => {
    const report = {
      id: 'auth.k',
      sent: { headers: { 'x-api-key': 'k' } },
      curl: "-H 'x-api-key: k'",
      findings: [{ message: 'your endpoint refuses the key you gave: k' }],
    };
    expect(redactReport(report, ['k'])).toEqual({
      ...report,
      findings: [{ message: 'your endpoint refuses the key you gave: REDACTED' }],
    });
  });

  it('changes nothing without a secret to hide', () => {
    const report = { body: 'x' };
    expect(redactReport(report, [undefined, ''])).toBe(report);
  });
});
