/**
 * Generated connect redirects: a legitimate signed link, and the ways an attacker bends one
 * towards another site. Each case says, from the contract alone, whether the community may
 * redirect and to which callback.
 */
import fc from 'fast-check';
import { sign, signRaw } from '../harness/connect-sign.js';
import { CONNECT_SECRET } from '../harness/secrets.js';
import { ALLOWED_CALLBACK_ORIGIN, CONNECT_ORIGIN, ROUTES } from '../servers/protocol.js';

/** One connect request and what must come of it. */
export interface ConnectCase {
  kind: string;
  route: string;
  /** The public URL the request stands for (its path and query are sent). */
  url: string;
  /** The path and query to send, when it differs from the URL's own (path tricks). */
  target?: string;
  /** The only callback the member may be sent back to, or null: the link must be refused. */
  callback: string | null;
  /**
   * Statuses a refusal may have (400 from the endpoint; 404 when the path misses the route).
   * Empty when the link is valid and must be honored.
   */
  refusals: number[];
  /** Signatures in the request: none may come back or be logged. */
  signatures: string[];
}

const EVIL_HOSTS = [
  'evil.example',
  'platform.example.evil.example',
  'evil.example:443',
  'xn--pltform-5ya.example',
];

/** Callbacks that are never a place to send a member, even when signed. */
const DANGEROUS = [
  'javascript:alert(document.domain)',
  'JAVASCRIPT:alert(1)',
  'java\tscript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/cb',
  '/\\evil.example/cb',
  '\\\\evil.example/cb',
  'https:evil.example/cb',
  'https:/evil.example/cb',
  'https:\\\\evil.example/cb',
  'https://platform.example@evil.example/cb',
  'https://:@evil.example/cb',
  'https://evil.example\\@platform.example/cb',
  'https://platform.example/cb\r\nSet-Cookie: session=evil',
  'https://platform.example/cb\nLocation: https://evil.example',
  'https%3A%2F%2Fevil.example%2Fcb',
  '/connect/callback',
  'platform.example/cb',
];

/** The contract's rule for a signed callback: a plain absolute http(s) URL, no credentials. */
function acceptableCallback(callback: string, route: string): boolean {
  if (!/^https?:\/\//i.test(callback) || /[\u0000-\u001f\u007f\\]/.test(callback)) return false;
  let url: URL;
  try {
    url = new URL(callback);
  } catch {
    return false;
  }
  const authority = callback.replace(/^https?:\/\//i, '').split(/[/?#]/, 1)[0] ?? '';
  if (url.username || url.password || authority.includes('@')) return false;
  return route !== ROUTES.connectAllow || url.origin === ALLOWED_CALLBACK_ORIGIN;
}

function redirectUrl(route: string, params: [string, string][]): string {
  return `${CONNECT_ORIGIN}${route}?${new URLSearchParams(params).toString()}`;
}

/** Replaces the value of one parameter of a signed URL as text, keeping the signature. */
function swapParam(url: string, name: string, value: string): string {
  const [base, query = ''] = url.split('?', 2) as [string, string?];
  const parts = query
    .split('&')
    .map((part) => (part.startsWith(`${name}=`) ? `${name}=${encodeURIComponent(value)}` : part));
  return `${base}?${parts.join('&')}`;
}

const input = fc.record({
  route: fc.constantFrom(ROUTES.connect, ROUTES.connectAllow),
  svcUserId: fc.uuid(),
  session: fc.string({ minLength: 1, maxLength: 12 }),
  evilHost: fc.constantFrom(...EVIL_HOSTS),
  dangerous: fc.constantFrom(...DANGEROUS),
  param: fc.constantFrom('callback', 'callbackUrl'),
  pick: fc.nat(),
});

type Input = typeof input extends fc.Arbitrary<infer T> ? T : never;

const KINDS: Record<string, (i: Input, legit: string) => ConnectCase> = {
  legit: (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        [i.param, legit],
      ]),
      CONNECT_SECRET,
    );
    return {
      kind: 'legit',
      route: i.route,
      url: signed.url,
      refusals: [],
      callback: legit,
      signatures: [signed.signature],
    };
  },
  'callback swapped': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const evil = `https://${i.evilHost}/connect/callback?session=${encodeURIComponent(i.session)}`;
    return {
      kind: 'callback swapped',
      route: i.route,
      url: swapParam(signed.url, 'callback', evil),
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'callback host changed': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const moved = legit.replace('platform.example', i.evilHost);
    return {
      kind: 'callback host changed',
      route: i.route,
      url: swapParam(signed.url, 'callback', moved),
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  // Signed with the real secret, as if the service had been made to sign it: the scheme and
  // shape rules (and the allow-list) still apply.
  'dangerous callback, signed': (i) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        [i.param, i.dangerous],
      ]),
      CONNECT_SECRET,
    );
    return {
      kind: 'dangerous callback, signed',
      route: i.route,
      url: signed.url,
      callback: acceptableCallback(i.dangerous, i.route) ? i.dangerous : null,
      refusals: acceptableCallback(i.dangerous, i.route) ? [] : [400],
      signatures: [signed.signature],
    };
  },
  'foreign origin, signed': (i) => {
    const foreign = `https://${i.evilHost}/cb?session=${encodeURIComponent(i.session)}`;
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', foreign],
      ]),
      CONNECT_SECRET,
    );
    return {
      kind: 'foreign origin, signed',
      route: i.route,
      url: signed.url,
      callback: acceptableCallback(foreign, i.route) ? foreign : null,
      refusals: acceptableCallback(foreign, i.route) ? [] : [400],
      signatures: [signed.signature],
    };
  },
  'double-encoded callback': (i) => {
    const text = `${CONNECT_ORIGIN}${i.route}?svcUserId=${i.svcUserId}&callback=https%253A%252F%252F${i.evilHost}%252Fcb`;
    const signed =
      i.pick % 2 === 0
        ? signRaw(text, CONNECT_SECRET)
        : { url: `${text}&signature=${'0'.repeat(64)}`, signature: '0'.repeat(64) };
    return {
      kind: 'double-encoded callback',
      route: i.route,
      url: signed.url,
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'callback given twice': (i, legit) => {
    const evil = `https://${i.evilHost}/cb`;
    const text = `${CONNECT_ORIGIN}${i.route}?svcUserId=${i.svcUserId}&callback=${encodeURIComponent(legit)}&callback=${encodeURIComponent(evil)}`;
    const signed = signRaw(text, CONNECT_SECRET);
    return {
      kind: 'callback given twice',
      route: i.route,
      url: signed.url,
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'encoded parameter name': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const url = `${signed.url}&call%62ack=${encodeURIComponent(`https://${i.evilHost}/cb`)}`;
    return {
      kind: 'encoded parameter name',
      route: i.route,
      url,
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'callbackUrl added': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const url = `${signed.url}&callbackUrl=${encodeURIComponent(`https://${i.evilHost}/cb`)}`;
    return {
      kind: 'callbackUrl added',
      route: i.route,
      url,
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'signed with another secret': (i) => {
    const evil = `https://${i.evilHost}/cb`;
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', evil],
      ]),
      `${CONNECT_SECRET}-guess`,
    );
    return {
      kind: 'signed with another secret',
      route: i.route,
      url: signed.url,
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  'signature tampered': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const sig = signed.signature;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
    const variants = [
      swapParam(signed.url, 'signature', flipped),
      swapParam(signed.url, 'signature', sig.slice(0, 63)),
      `${signed.url}&signature=${sig}`,
      signed.url.replace(/&signature=.*$/, ''),
      swapParam(signed.url, 'signature', `${sig}00`),
      swapParam(signed.url, 'signature', ` ${sig}`),
    ];
    return {
      kind: 'signature tampered',
      route: i.route,
      url: variants[i.pick % variants.length]!,
      refusals: [400],
      callback: null,
      signatures: [sig],
    };
  },
  'svcUserId changed': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    return {
      kind: 'svcUserId changed',
      route: i.route,
      url: swapParam(signed.url, 'svcUserId', `${i.svcUserId}0`),
      refusals: [400],
      callback: null,
      signatures: [signed.signature],
    };
  },
  // A path that WHATWG URL parsing normalizes back to the route (`/connect/../connect`) is the
  // signed URL itself: it may be honored, to the signed callback only, or refused.
  'path points elsewhere': (i, legit) => {
    const signed = sign(
      redirectUrl(i.route, [
        ['svcUserId', i.svcUserId],
        ['callback', legit],
      ]),
      CONNECT_SECRET,
    );
    const query = signed.url.slice(signed.url.indexOf('?'));
    const targets = [
      `//${i.evilHost}${i.route}${query}`,
      `/\\${i.evilHost}${i.route}${query}`,
      `${i.route}/..${i.route}${query}`,
    ];
    return {
      kind: 'path points elsewhere',
      route: i.route,
      url: signed.url,
      target: targets[i.pick % targets.length]!,
      refusals: [400, 404],
      callback: legit,
      signatures: [signed.signature],
    };
  },
};

/** Connect requests, legitimate and hostile. */
export const connectCaseArbitrary: fc.Arbitrary<ConnectCase> = fc
  .tuple(input, fc.constantFrom(...Object.keys(KINDS)))
  .map(([i, kind]) => {
    const legit = `${ALLOWED_CALLBACK_ORIGIN}/connect/callback?session=${encodeURIComponent(i.session)}`;
    return KINDS[kind]!(i, legit);
  });
