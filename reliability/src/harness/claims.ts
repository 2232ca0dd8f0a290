import type { RequestSpec } from './raw-http.js';
import { API_KEY } from './secrets.js';

/** A claim body as the platform sends it. */
export function claimJson(questId: string, requestId: string): string {
  return JSON.stringify({
    userId: 'user-1',
    communityId: 'community-1',
    subdomain: 'demo',
    questId,
    requestId,
    accounts: { email: 'member@example.com' },
  });
}

/** A well-formed claim request, kept alive unless `close`. */
export function claimSpec(
  path: string,
  questId: string,
  requestId: string,
  options: { close?: boolean } = {},
): RequestSpec {
  return {
    method: 'POST',
    path,
    headers: [
      ['host', '127.0.0.1'],
      ['x-api-key', API_KEY],
      ['content-type', 'application/json'],
      ...(options.close ? ([['connection', 'close']] as const) : []),
    ],
    body: new TextEncoder().encode(claimJson(questId, requestId)),
    framing: 'length',
  };
}

/** The head of a claim request whose body the test writes itself. */
export function claimHead(path: string, framing: { contentLength: number } | 'chunked'): Buffer {
  const lines = [
    `POST ${path} HTTP/1.1`,
    'host: 127.0.0.1',
    `x-api-key: ${API_KEY}`,
    'content-type: application/json',
    framing === 'chunked'
      ? 'transfer-encoding: chunked'
      : `content-length: ${framing.contentLength}`,
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}
