import { describe, expect, it } from 'vitest';
import { checkVerificationAnswer } from './checks.js';

const json = 'application/json; charset=utf-8';
const checksOf = (answer: Parameters<typeof checkVerificationAnswer>[0]) =>
  checkVerificationAnswer(answer).violations.map((v) => `${v.check}:${v.severity}`);

describe('checkVerificationAnswer', () => {
  it('passes 200 and 400 answers with a message', () => {
    for (const status of [200, 400]) {
      const report = checkVerificationAnswer({
        status,
        contentType: json,
        body: '{"message":"Hi"}',
        elapsedMs: 20,
      });
      expect(report).toEqual({
        passed: true,
        judged: true,
        checks: { response_time: 'pass', message_format: 'pass', status_code: 'pass' },
        violations: [],
        message: 'Hi',
        fields: { message: 'Hi' },
      });
    }
  });

  it('names what was received in plain words: an array, an object, a number', () => {
    const problem = (body: string) =>
      checkVerificationAnswer({ status: 400, contentType: json, body, elapsedMs: 5 }).violations[0]
        ?.message;
    expect(problem('{"message":["userId must be a string"]}')).toBe(
      '"message" is an array, not a string: ["userId must be a string"]',
    );
    expect(problem('{"message":{"text":"x"}}')).toMatch(/^"message" is an object, not a string/);
    expect(problem('{"message":3}')).toMatch(/^"message" is a number, not a string/);
    expect(problem('[1]')).toBe('the body is an array, not an object {"message": "..."}');
    expect(problem('"ok"')).toBe('the body is a string, not an object {"message": "..."}');
  });

  it('hands on the JSON object it read, so a caller never parses the body again', () => {
    const report = checkVerificationAnswer({
      status: 200,
      contentType: json,
      body: '{"message":"Hi","verified":false}',
      elapsedMs: 5,
    });
    expect(report.fields).toEqual({ message: 'Hi', verified: false });
  });

  it.each([
    [401, '{"message":"no"}'],
    [500, '{"message":"boom"}'],
    [204, ''],
    [302, ''],
  ])('fails status %i', (status, body) => {
    const report = checkVerificationAnswer({ status, contentType: json, body, elapsedMs: 5 });
    expect(report.passed).toBe(false);
    expect(report.violations[0]?.check).toBe('status_code');
  });

  it.each([
    ['an HTML page', '<html>oops</html>', /HTML/],
    ['plain text', 'Bad Request', /not JSON/],
    ['a JSON array', '[]', /not an object/],
    ['no message', '{"error":"x"}', /no "message"/],
    ['a numeric message', '{"message":3}', /number/],
    ['a null message', '{"message":null}', /null/],
    ['an empty message', '{"message":""}', /empty/],
    ['a blank message', '{"message":"  "}', /empty/],
    ['an empty body', '', /not JSON/],
  ])('fails message_format for %s', (_, body, problem) => {
    const report = checkVerificationAnswer({ status: 400, contentType: json, body, elapsedMs: 5 });
    expect(report.passed).toBe(false);
    expect(report.violations).toHaveLength(1);
    expect(report.violations[0]).toMatchObject({ check: 'message_format', severity: 'error' });
    expect(report.violations[0]?.message).toMatch(problem);
  });

  it('warns, without failing, on a JSON body sent with another content type', () => {
    expect(
      checksOf({ status: 400, contentType: 'text/plain', body: '{"message":"x"}', elapsedMs: 1 }),
    ).toEqual(['message_format:warning']);
    expect(
      checksOf({
        status: 400,
        contentType: 'application/problem+json',
        body: '{"message":"x"}',
        elapsedMs: 1,
      }),
    ).toEqual([]);
  });

  it('fails response_time past 10 s and warns past 5 s', () => {
    expect(
      checksOf({ status: 200, contentType: json, body: '{"message":"x"}', elapsedMs: 10_001 }),
    ).toEqual(['response_time:error']);
    expect(
      checksOf({ status: 200, contentType: json, body: '{"message":"x"}', elapsedMs: 10_000 }),
    ).toEqual(['response_time:warning']);
    expect(
      checksOf({ status: 200, contentType: json, body: '{"message":"x"}', elapsedMs: 6_000 }),
    ).toEqual(['response_time:warning']);
  });

  it('fails a timeout on response_time and judges nothing else of it', () => {
    const report = checkVerificationAnswer({ timedOut: true, elapsedMs: 10_000 });
    expect(checksOf({ timedOut: true, elapsedMs: 10_000 })).toEqual(['response_time:error']);
    expect(report.checks).toEqual({
      response_time: 'fail',
      message_format: 'not_judged',
      status_code: 'not_judged',
    });
    expect(report.passed).toBe(false);
  });

  it('judges nothing of a call that got no answer, and passes none of its checks', () => {
    const report = checkVerificationAnswer({ error: 'connection refused', elapsedMs: 2 });
    expect(report).toEqual({
      passed: false,
      judged: false,
      checks: {
        response_time: 'not_judged',
        message_format: 'not_judged',
        status_code: 'not_judged',
      },
      violations: [],
      unanswered: 'no answer: connection refused',
    });
  });

  it('gives each check the verdict of its own violations', () => {
    const report = checkVerificationAnswer({
      status: 401,
      contentType: 'text/plain',
      body: '{"message":"no key"}',
      elapsedMs: 6_000,
    });
    expect(report.checks).toEqual({
      response_time: 'warn',
      message_format: 'warn',
      status_code: 'fail',
    });
  });

  it('reports every check an answer breaks', () => {
    expect(
      checksOf({ status: 500, contentType: 'text/html', body: '<h1>500</h1>', elapsedMs: 11_000 }),
    ).toEqual(['response_time:error', 'status_code:error', 'message_format:error']);
  });
});
