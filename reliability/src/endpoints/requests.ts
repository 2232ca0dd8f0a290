/**
 * Generated requests for the verification endpoints: any method, odd and repeated headers, and
 * bodies of every shape. Every request is well-framed HTTP/1.1 (framing errors are Node's parser's
 * business and have their own suite), so each one reaches the framework and the adapter.
 */
import { METHODS } from 'node:http';
import fc from 'fast-check';
import type { RequestSpec } from '../harness/raw-http.js';
import { API_KEY, WRONG_KEY_PREFIX } from '../harness/secrets.js';

/** A generated request and what the endpoint may answer to it. */
export interface FuzzCase {
  spec: RequestSpec;
  /** Whether a 200 is possible at all: POST with exactly one correct key. */
  mayClaim: boolean;
  /** What the body is, for reports. */
  bodyKind: string;
}

const encoder = new TextEncoder();
const hex = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength, maxLength });
const bytes = (text: string) => encoder.encode(text);

/** A claim as the platform sends it, with fields from the generator. */
const claimArbitrary = fc.record({
  userId: fc.string({ minLength: 1, maxLength: 40 }),
  communityId: fc.uuid(),
  subdomain: fc.constantFrom('demo', 'community', 'x'),
  questId: fc.constantFrom('quest-1', 'quest-2', 'answers', 'throws'),
  requestId: fc.uuid(),
  accounts: fc.option(
    fc.record(
      {
        email: fc.emailAddress(),
        wallet: hex(40, 40).map((hex) => `0x${hex}`),
        discord: fc.record({ id: fc.string(), handle: fc.string() }),
        twitter: fc.record({ id: fc.string(), username: fc.string() }),
        'svc-connect': fc.string(),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
});

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A value of the wrong type for a string field. */
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const CLAIM_FIELDS = ['userId', 'communityId', 'subdomain', 'questId', 'requestId', 'accounts'];

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** Bodies, each with a label. */
const bodyArbitrary: fc.Arbitrary<{ kind: string; body: Uint8Array }> = fc.oneof(
  // A valid claim, possibly with unknown extra fields (forward compatibility).
  {
    weight: 8,
    arbitrary: fc
      .tuple(claimArbitrary, fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 4 }))
      .map(([claim, extra]) => ({
        kind: 'claim',
        body: bytes(JSON.stringify({ ...extra, ...claim })),
      })),
  },
  // A claim with one field missing or of the wrong type (numbers where strings belong, ...).
  {
    weight: 3,
    arbitrary: fc
      .tuple(claimArbitrary, fc.constantFrom(...CLAIM_FIELDS), fc.option(wrongType))
      .map(([claim, field, value]) => {
        const copy: Record<string, unknown> = { ...claim };
        if (value === null) delete copy[field];
        else copy[field] = value;
        return { kind: 'wrong-field', body: bytes(JSON.stringify(copy)) };
      }),
  },
  // `__proto__`, `constructor` and `prototype` keys, at the top and inside accounts.
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        claimArbitrary,
        fc.constantFrom('__proto__', 'constructor', 'prototype'),
        fc.constantFrom('top', 'accounts', 'discord'),
      )
      .map(([claim, key, where]) => {
        const payload = `{"polluted":"yes","claimed":true,"isAdmin":true,"prototype":{"polluted":"yes"}}`;
        const { accounts: _accounts, ...rest } = claim;
        const base = JSON.stringify(rest).slice(1, -1);
        const text =
          where === 'top'
            ? `{"${key}":${payload},${base},"accounts":{"email":"m@example.com"}}`
            : where === 'accounts'
              ? `{${base},"accounts":{"${key}":${payload},"email":"m@example.com"}}`
              : `{${base},"accounts":{"discord":{"id":"1","handle":"h","${key}":${payload}}}}`;
        return { kind: `proto-${where}`, body: bytes(text) };
      }),
  },
  // Truncated JSON: a valid claim cut anywhere.
  {
    weight: 2,
    arbitrary: fc.tuple(claimArbitrary, fc.nat()).map(([claim, cut]) => {
      const text = JSON.stringify(claim);
      return { kind: 'truncated', body: bytes(text.slice(0, cut % text.length)) };
    }),
  },
  // Invalid JSON of many kinds.
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.string({ maxLength: 200 }),
        fc.constantFrom(
          '{',
          '}',
          '{"userId":}',
          "{'userId':'a'}",
          '{"userId":"a",}',
          '[1,2,]',
          'NaN',
          'undefined',
          '{"a":1}{"b":2}',
          '\u0000',
          '{"userId":"\\ud800"}',
          '{"userId":"\\u00"}',
        ),
      )
      .map((text) => ({ kind: 'invalid-json', body: bytes(text) })),
  },
  // Invalid UTF-8 inside an otherwise valid claim, or raw random bytes.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        claimArbitrary,
        fc.constantFrom(
          [0xc3, 0x28],
          [0xa0, 0xa1],
          [0xe2, 0x28, 0xa1],
          [0xed, 0xa0, 0x80],
          [0xc0, 0xaf],
          [0xf0, 0x28, 0x8c, 0x28],
          [0xff],
          [0xfe, 0xff],
        ),
      )
      .map(([claim, bad]) => {
        const text = JSON.stringify(claim);
        const at = text.indexOf('"userId":"') + 10;
        const body = new Uint8Array([
          ...bytes(text.slice(0, at)),
          ...bad,
          ...bytes(text.slice(at)),
        ]);
        return { kind: 'invalid-utf8', body };
      }),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 512 }).map((body) => ({ kind: 'random-bytes', body })),
  },
  // Deeply nested arrays and objects, alone or as a field's value.
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.integer({ min: 100, max: 30_000 }), fc.boolean(), fc.boolean(), claimArbitrary)
      .map(([depth, asArray, inField, claim]) => {
        const deep = asArray ? nested(depth, '[', ']', '0') : nested(depth, '{"a":', '}', '0');
        const text = inField
          ? JSON.stringify({ ...claim, userId: null }).replace('null', deep)
          : deep;
        return { kind: 'deep', body: bytes(text) };
      }),
  },
  // Huge arrays, under and over the body limit.
  {
    weight: 2,
    arbitrary: fc.integer({ min: 1_000, max: 120_000 }).map((length) => ({
      kind: 'huge-array',
      body: bytes(`[${'0,'.repeat(length)}0]`),
    })),
  },
  // Oversized bodies: just under, at and over the limit, and far over it.
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        claimArbitrary,
        fc.oneof(
          fc.integer({ min: 60_000, max: 70_000 }),
          fc.integer({ min: 100_000, max: 1_000_000 }),
        ),
      )
      .map(([claim, size]) => ({
        kind: 'oversized',
        body: bytes(JSON.stringify({ ...claim, padding: 'x'.repeat(size) })),
      })),
  },
  // Duplicate keys, BOM, UTF-16, scalars, empty.
  {
    weight: 2,
    arbitrary: fc.tuple(claimArbitrary, fc.nat({ max: 6 })).map(([claim, pick]) => {
      const text = JSON.stringify(claim);
      const variants: [string, Uint8Array][] = [
        ['duplicate-keys', bytes(`{"userId":42,${text.slice(1)}`)],
        ['duplicate-keys', bytes(`${text.slice(0, -1)},"userId":42}`)],
        ['bom', new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)])],
        ['utf16', new Uint8Array(Buffer.from(`\ufeff${text}`, 'utf16le'))],
        ['scalar', bytes(['null', 'true', '0', '"claim"', '[]', '1e400'][pick % 6] ?? 'null')],
        ['empty', new Uint8Array(0)],
        ['whitespace', bytes(' \n\t\r ')],
      ];
      const [kind, body] = variants[pick % variants.length]!;
      return { kind, body };
    }),
  },
);

const tchar = fc.constantFrom(
  ..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(''),
);
const headerName = fc.string({ unit: tchar, minLength: 1, maxLength: 24 });
// Visible ASCII, spaces and tabs inside, and obs-text bytes (latin1), as RFC 9110 allows.
const valueChar = fc
  .oneof(
    { weight: 20, arbitrary: fc.integer({ min: 0x21, max: 0x7e }) },
    { weight: 2, arbitrary: fc.constantFrom(0x20, 0x09) },
    { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
const headerValue = (maxLength: number) =>
  fc.string({ unit: valueChar, maxLength }).map((value) => value.trim());

/** The x-api-key header(s), and whether they carry exactly the right key. */
const apiKeyHeaders: fc.Arbitrary<{ headers: [string, string][]; valid: boolean }> = fc
  .tuple(
    fc.constantFrom('x-api-key', 'X-Api-Key', 'X-API-KEY'),
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('valid') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'missing',
          'empty',
          'wrong',
          'twice',
          'valid-and-wrong',
          'padded',
          'upper',
          'suffixed',
          'huge',
        ),
      },
    ),
    hex(8, 32),
  )
  .map(([name, state, hex]) => {
    const wrong = `${WRONG_KEY_PREFIX}${hex}`;
    switch (state) {
      case 'valid':
        return { headers: [[name, API_KEY]], valid: true };
      case 'missing':
        return { headers: [], valid: false };
      case 'empty':
        return { headers: [[name, '']], valid: false };
      case 'twice':
        return {
          headers: [
            [name, API_KEY],
            [name, API_KEY],
          ],
          valid: false,
        };
      case 'valid-and-wrong':
        return {
          headers: [
            [name, API_KEY],
            [name, wrong],
          ],
          valid: false,
        };
      // Surrounding whitespace is not part of a header value (RFC 9110): still the right key.
      case 'padded':
        return { headers: [[name, ` ${API_KEY}\t`]], valid: true };
      case 'upper':
        return { headers: [[name, API_KEY.toUpperCase()]], valid: false };
      case 'suffixed':
        return { headers: [[name, `${API_KEY}0`]], valid: false };
      case 'huge':
        return { headers: [[name, wrong + 'k'.repeat(8_000)]], valid: false };
      default:
        return { headers: [[name, wrong]], valid: false };
    }
  });

const contentTypes = fc.constantFrom(
  [],
  [['content-type', 'application/json']],
  [['content-type', 'application/json; charset=utf-8']],
  [['Content-Type', 'application/json; charset=latin1']],
  [['content-type', 'application/json; charset=utf-16']],
  [['content-type', 'text/plain']],
  [['content-type', 'application/x-www-form-urlencoded']],
  [['content-type', 'multipart/form-data; boundary=x']],
  [['content-type', 'application/octet-stream']],
  [
    ['content-type', 'application/json'],
    ['content-type', 'text/plain'],
  ],
  [['content-type', '']],
  [['content-type', 'application/json; charset=nonsense']],
) as fc.Arbitrary<[string, string][]>;

const otherHeaders: fc.Arbitrary<[string, string][]> = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.tuple(headerName, headerValue(80)), { maxLength: 8 }) },
  // One oversized header (Node accepts up to 16 KiB of headers in all).
  {
    weight: 1,
    arbitrary: fc
      .tuple(headerName, fc.integer({ min: 1_000, max: 9_000 }))
      .map(([name, size]) => [[name, 'v'.repeat(size)] as [string, string]]),
  },
  {
    weight: 2,
    arbitrary: fc.subarray([
      ['content-encoding', 'gzip'],
      ['content-encoding', 'br'],
      ['content-encoding', 'identity'],
      ['content-encoding', 'nonsense'],
      ['accept', 'text/html'],
      ['accept-encoding', 'gzip, br'],
      ['connection', 'keep-alive'],
      ['connection', 'close'],
      ['expect', '100-continue'],
      ['x-forwarded-for', '10.0.0.1'],
      ['x-forwarded-proto', 'https'],
      ['cookie', 'session=abc'],
      ['authorization', 'Bearer x'],
      ['x-http-method-override', 'POST'],
    ] as [string, string][]),
  },
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('POST') },
  // Every method Node's parser knows, but CONNECT (a tunnel, never a request to a route).
  { weight: 2, arbitrary: fc.constantFrom(...METHODS.filter((name) => name !== 'CONNECT')) },
);

const query = fc.oneof(
  { weight: 5, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 16 })), { maxLength: 3 })
      .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
  },
);

const framing = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ framing: 'length' as const, chunks: [] as number[] }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 1, max: 4_096 }), { minLength: 1, maxLength: 12 })
      .map((chunks) => ({ framing: 'chunked' as const, chunks })),
  },
);

/** Requests to `path` (the endpoint's route). */
export function fuzzCaseArbitrary(path: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      method,
      query,
      host: fc.oneof(
        { weight: 8, arbitrary: fc.constant('127.0.0.1') },
        {
          weight: 1,
          arbitrary: fc.constantFrom('localhost:3000', 'community.example', '[::1]:80'),
        },
      ),
      apiKey: apiKeyHeaders,
      contentType: contentTypes,
      other: otherHeaders,
      framing,
      body: bodyArbitrary,
      order: fc.nat(),
    })
    .map((input) => {
      let other = input.other.filter(
        ([name]) => !/^(content-length|transfer-encoding|host|x-api-key|upgrade)$/i.test(name),
      );
      // Node refuses a header section over 16 KiB with its own 431 before any framework runs
      // (the framing suite covers that): keep two oversized values from adding up past it.
      const size = [...input.apiKey.headers, ...other].reduce(
        (sum, [n, v]) => sum + n.length + v.length,
        0,
      );
      if (size > 14_000) other = other.filter(([, value]) => value.length < 1_000);
      const headers: [string, string][] = [...input.apiKey.headers, ...input.contentType, ...other];
      // Rotate so the key is not always first.
      const rotation = headers.length === 0 ? 0 : input.order % headers.length;
      const ordered: [string, string][] = [
        ['host', input.host],
        ...headers.slice(rotation),
        ...headers.slice(0, rotation),
      ];
      return {
        spec: {
          method: input.method,
          path: path + input.query,
          headers: ordered,
          body: input.body.body,
          framing: input.framing.framing,
          chunks: input.framing.chunks,
        },
        mayClaim: input.method === 'POST' && input.apiKey.valid,
        bodyKind: input.body.kind,
      };
    });
}

/** A valid claim request, for warming a server up before its memory baseline is taken. */
export function validClaimSpec(path: string, index: number): RequestSpec {
  return {
    method: 'POST',
    path,
    headers: [
      ['host', '127.0.0.1'],
      ['x-api-key', API_KEY],
      ['content-type', 'application/json'],
    ],
    body: bytes(
      JSON.stringify({
        userId: `user-${index}`,
        communityId: 'community-1',
        subdomain: 'demo',
        questId: 'quest-1',
        requestId: `request-${index}`,
        accounts: { email: 'member@example.com' },
      }),
    ),
    framing: 'length',
  };
}
