import { describe, expect, it } from 'vitest';
import { deliveryBody } from './delivery-checks.js';
import { REDACTED, recordReceivedAnswer, recordSentRequest, redact } from './recorded-exchange.js';

const url = 'http://127.0.0.1:4010/verify';

describe('redact', () => {
  it('hides every occurrence of each secret, and nothing else', () => {
    expect(redact('key-1 and key-1, not key-2', ['key-1'])).toBe(
      `${REDACTED} and ${REDACTED}, not key-2`,
    );
  });

  it('hides a secret inside a JSON body, where quotes and backslashes are escaped', () => {
    const secret = 'se"cr\\et';
    const body = deliveryBody({ type: 'QUEST_CLAIMED' }, secret);
    expect(body).not.toContain(secret);
    expect(JSON.parse(redact(body, [secret]))).toEqual({ type: 'QUEST_CLAIMED', secret: REDACTED });
  });

  it('hides a secret whole when another secret is part of it', () => {
    expect(redact('abcdef', ['abc', 'abcdef'])).toBe(REDACTED);
  });

  it('ignores an empty secret', () => {
    expect(redact('text', [''])).toBe('text');
  });
});

describe('recordSentRequest', () => {
  it('redacts the secret in the URL, the headers and the body, and counts the bytes sent', () => {
    const sent = recordSentRequest(
      {
        method: 'POST',
        url: `${url}?signature=sig-1`,
        headers: { 'x-api-key': 'key-1', 'x-other': 'wrong-key' },
        body: '{"note":"é key-1"}',
      },
      { secrets: ['key-1', 'sig-1'] },
    );
    expect(sent).toEqual({
      method: 'POST',
      url: `${url}?signature=${REDACTED}`,
      headers: { 'x-api-key': REDACTED, 'x-other': 'wrong-key' },
      body: `{"note":"é ${REDACTED}"}`,
      bodyBytes: 19,
    });
  });

  it('shows everything when no secret is given, and no body when none was sent', () => {
    const request = { method: 'GET', url, headers: { 'x-api-key': 'key-1' } };
    expect(recordSentRequest(request)).toEqual({ ...request, bodyBytes: 0 });
  });

  it('cuts a long body to maxBodyChars and says how long it was', () => {
    const sent = recordSentRequest(
      { method: 'POST', url, headers: {}, body: 'x'.repeat(30) },
      { maxBodyChars: 10 },
    );
    expect(sent.body).toBe(`${'x'.repeat(10)}… (30 characters in all)`);
    expect(sent.bodyBytes).toBe(30);
  });
});

describe('recordReceivedAnswer', () => {
  it('keeps the observed fields that are set, rounds the time and redacts the location', () => {
    const received = recordReceivedAnswer(
      {
        status: 302,
        contentType: null,
        location: 'https://app.example/back?signature=sig-2',
        body: '',
        elapsedMs: 12.345,
      },
      { secrets: ['sig-2'] },
    );
    expect(received).toEqual({
      status: 302,
      contentType: null,
      location: `https://app.example/back?signature=${REDACTED}`,
      body: '',
      elapsedMs: 12.3,
    });
  });

  it('records why no answer came', () => {
    expect(
      recordReceivedAnswer({ elapsedMs: 10_000.04, timedOut: true, error: 'timeout' }),
    ).toEqual({ elapsedMs: 10_000, timedOut: true, error: 'timeout' });
  });

  it('keeps that the body was truncated, and cuts it further to maxBodyChars', () => {
    const received = recordReceivedAnswer(
      { status: 200, body: 'y'.repeat(20), truncated: true, elapsedMs: 1 },
      { maxBodyChars: 5 },
    );
    expect(received.body).toBe('yyyyy… (20 characters in all)');
    expect(received.truncated).toBe(true);
  });
});
