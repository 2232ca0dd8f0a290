/**
 * Bad input on every public route of the mock platform, over real HTTP to a mock in a child
 * process: every parameter, header and body field its OpenAPI document declares gets values of
 * the wrong type, out of range or length, malformed uuids and uris and injection-looking strings;
 * bodies that are not JSON objects; bad credentials. Never a 5xx, never a status the document does
 * not declare; a refused field is a 400 JSON error naming it.
 */
import { API_OPERATIONS, type OperationId } from '@questkit/core/api';
import { DEMO } from '@questkit/mock-platform';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL, SEED } from '../config.js';
import { runPool } from '../harness/pool.js';
import { type ChildServer, startMock } from '../harness/server-process.js';
import { n, record } from '../report/record.js';
import {
  BAD_BODIES,
  type BadValue,
  badJsonValues,
  badTextValues,
  type Location,
  type Schema,
} from './bad-input.js';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters?: { name: string; in: Location; required?: boolean; schema: Schema }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, unknown>;
}

interface Case {
  operation: Operation;
  label: string;
  location: Location | 'credentials';
  field: string;
  mustRefuse: boolean;
  /** Statuses required (credential cases); else judged by `mustRefuse`. */
  statuses?: number[];
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

const RW = DEMO.apiKeys.readWrite;
const WRITE_METHODS = new Set(['post', 'patch', 'delete']);
const RANDOM_CASES = FULL ? 5_000 : 300;

describe('bad input on every public route of the mock platform', () => {
  let mock: ChildServer;
  let origin: string;
  let operations: Operation[];
  let schemas: Record<string, Schema>;
  let webhookId: string;
  let uriCounter = 0;

  const baseline = (operation: Operation) => {
    const path: Record<string, string> = {
      subdomain: DEMO.subdomain,
      userId: DEMO.users.admin,
      id: DEMO.users.admin,
      webhookId,
    };
    const query: Record<string, string> =
      operation.operationId === 'lookupUser'
        ? { email: 'ada@example.com' }
        : operation.operationId === 'listInvites'
          ? { page: '1' }
          : {};
    const bodies: Record<string, () => Record<string, unknown>> = {
      createQuest: () => ({
        categoryId: DEMO.modules.onboarding,
        name: 'Reliability quest',
        published: true,
        recurrence: 'daily',
        conditionOperator: 'AND',
      }),
      createWebhook: () => ({
        name: 'reliability',
        uri: `http://127.0.0.1:9/bad-input/${uriCounter++}`,
        active: false,
        events: [],
      }),
      updateWebhook: () => ({ name: 'renamed' }),
    };
    const body = bodies[operation.operationId]?.();
    return { path, query, body };
  };

  const resolve = (schema: Schema): Schema =>
    schema.$ref ? (schemas[schema.$ref.split('/').at(-1) ?? ''] ?? {}) : schema;

  function casesOf(operation: Operation): Case[] {
    const base = baseline(operation);
    const headers: Record<string, string> = { 'x-api-key': RW };
    const json = (value: unknown) => JSON.stringify(value);
    const make = (
      label: string,
      location: Case['location'],
      field: string,
      mustRefuse: boolean,
      change: Partial<Pick<Case, 'path' | 'query' | 'headers' | 'body' | 'statuses'>>,
    ): Case => ({
      operation,
      label,
      location,
      field,
      mustRefuse,
      path: base.path,
      query: base.query,
      headers: { ...headers, ...(base.body ? { 'content-type': 'application/json' } : {}) },
      ...(base.body ? { body: json(base.body) } : {}),
      ...change,
    });
    const cases: Case[] = [];
    for (const parameter of operation.parameters ?? []) {
      for (const bad of badTextValues(parameter.schema)) {
        const value = String(bad.value);
        // Header values cannot carry control characters on the wire.
        if (parameter.in === 'header' && /[^\u0020-\u007e]/.test(value)) continue;
        const where = parameter.in;
        cases.push(
          make(bad.label, where, parameter.name, bad.mustRefuse, {
            ...(where === 'path' ? { path: { ...base.path, [parameter.name]: value } } : {}),
            ...(where === 'query' ? { query: { ...base.query, [parameter.name]: value } } : {}),
            ...(where === 'header'
              ? {
                  headers: {
                    'x-api-key': RW,
                    [parameter.name]: value,
                    ...(base.body ? { 'content-type': 'application/json' } : {}),
                  },
                }
              : {}),
          }),
        );
      }
    }
    const bodySchema = operation.requestBody?.content['application/json'].schema;
    if (bodySchema && base.body) {
      const resolved = resolve(bodySchema);
      for (const [field, fieldSchema] of Object.entries(resolved.properties ?? {})) {
        const values: BadValue[] = badJsonValues(resolve(fieldSchema));
        for (const bad of values) {
          const body = { ...baseline(operation).body, [field]: bad.value };
          cases.push(make(bad.label, 'body', field, bad.mustRefuse, { body: json(body) }));
        }
      }
      for (const bad of BAD_BODIES) {
        cases.push(
          make(bad.label, 'body', '', bad.mustRefuse ?? true, {
            body: bad.text,
            headers: { 'x-api-key': RW, 'content-type': bad.contentType ?? 'application/json' },
          }),
        );
      }
      // Keys that would pollute a prototype if the body were merged carelessly.
      const valid = json(baseline(operation).body).slice(1);
      cases.push(
        make('__proto__ key', 'body', '', false, {
          body: `{"__proto__":{"polluted":true,"isAdmin":true},${valid}`,
        }),
        make('constructor.prototype key', 'body', '', false, {
          body: `{"constructor":{"prototype":{"polluted":true}},${valid}`,
        }),
      );
    }
    // Credentials: every route refuses what does not identify a caller, and a read-only key writes nothing.
    const forged = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: DEMO.users.admin, cid: DEMO.communityId, exp: 4_102_444_800 }),
    ).toString('base64url')}.`;
    const credential = (label: string, value: Record<string, string>, statuses: number[]) =>
      cases.push(
        make(label, 'credentials', '', false, {
          headers: { ...value, ...(base.body ? { 'content-type': 'application/json' } : {}) },
          statuses,
        }),
      );
    credential('no credential', {}, [401]);
    credential('unknown key', { 'x-api-key': 'qk_demo_rw_0000000000000000' }, [401]);
    credential('oversized key', { 'x-api-key': 'k'.repeat(8_000) }, [401]);
    credential('injection as key', { 'x-api-key': "' OR '1'='1" }, [401]);
    credential('garbage bearer', { authorization: 'Bearer not.a.token' }, [401]);
    credential('unsigned (alg none) token', { authorization: `Bearer ${forged}` }, [401]);
    credential('basic auth', { authorization: 'Basic YWRtaW46YWRtaW4=' }, [401]);
    credential('oversized bearer', { authorization: `Bearer ${'t'.repeat(8_000)}` }, [401]);
    // Writes need a read-write key; a POST that only reads (the member check) does not.
    const access = API_OPERATIONS[operation.operationId as OperationId]?.access;
    if (WRITE_METHODS.has(operation.method) && access === 'write') {
      credential('read-only key on a write', { 'x-api-key': DEMO.apiKeys.readOnly }, [403]);
    }
    return cases;
  }

  function url(item: Case): string {
    let path = item.operation.path;
    for (const [name, value] of Object.entries(item.path)) {
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    }
    const query = new URLSearchParams(item.query).toString();
    return `${origin}${path}${query ? `?${query}` : ''}`;
  }

  function judge(item: Case, status: number, type: string | null, text: string): string[] {
    const problems: string[] = [];
    if (status >= 500) problems.push(`status ${status}`);
    if (!(String(status) in item.operation.responses)) problems.push(`undeclared status ${status}`);
    if (item.statuses && !item.statuses.includes(status))
      problems.push(`status ${status}, expected ${item.statuses.join(' or ')}`);
    if (status < 400) {
      if (item.mustRefuse) problems.push(`accepted (${status})`);
      return problems;
    }
    let body: { message?: unknown; issues?: { in: string; path: string }[] } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      problems.push(`error body is not JSON: ${text.slice(0, 80)}`);
    }
    if (!/^application\/json/.test(type ?? '')) problems.push(`content-type ${type}`);
    if (typeof body?.message !== 'string' || body.message.trim() === '')
      problems.push('no message');
    if (item.mustRefuse) {
      if (status !== 400) problems.push(`status ${status}, expected 400`);
      const message = String(body?.message ?? '');
      const named =
        item.field === ''
          ? /body/i.test(message) || (body?.issues ?? []).some((issue) => issue.in === 'body')
          : message.includes(item.field) ||
            (body?.issues ?? []).some(
              (issue) =>
                issue.in === item.location &&
                (issue.path === item.field || issue.path.startsWith(`${item.field}.`)),
            );
      if (!named)
        problems.push(`does not name ${item.field || 'the body'}: ${message.slice(0, 120)}`);
    }
    return problems;
  }

  const tally = { requests: 0, mustRefuse: 0, mayAccept: 0, credentials: 0, random: 0 };
  const statuses = new Map<number, number>();
  const violations: string[] = [];

  async function send(item: Case): Promise<void> {
    tally.requests++;
    try {
      const response = await fetch(url(item), {
        method: item.operation.method.toUpperCase(),
        headers: item.headers,
        ...(item.body === undefined ? {} : { body: item.body }),
      });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      for (const problem of judge(
        item,
        response.status,
        response.headers.get('content-type'),
        text,
      )) {
        violations.push(
          `${item.operation.operationId} ${item.location} ${item.field} (${item.label}): ${problem}`,
        );
      }
    } catch (error) {
      violations.push(`${item.operation.operationId} ${item.label}: ${(error as Error).message}`);
    }
  }

  beforeAll(async () => {
    mock = await startMock({ rateLimit: false, seedUsers: 50 });
    origin = `http://127.0.0.1:${mock.port}`;
    const document = (await (await fetch(`${origin}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
      components: { schemas: Record<string, Schema> };
    };
    schemas = document.components.schemas;
    operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ ...operation, method, path })),
    );
    const created = await fetch(`${origin}/public/communities/demo/webhooks`, {
      method: 'POST',
      headers: { 'x-api-key': RW, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bad input target',
        uri: 'http://127.0.0.1:9/target',
        active: false,
      }),
    });
    webhookId = ((await created.json()) as { id: string }).id;
  });

  afterAll(async () => {
    await mock?.close();
  });

  it('answers every bad value with a 4xx JSON error naming it, never a 5xx', async () => {
    const cases = operations.flatMap(casesOf);
    for (const item of cases) {
      if (item.location === 'credentials') tally.credentials++;
      else if (item.mustRefuse) tally.mustRefuse++;
      else tally.mayAccept++;
    }
    await runPool(cases.length, 8, (index) => send(cases[index]!));

    // Random text in every free-text field, seeded.
    const freeText = operations.flatMap((operation) =>
      (operation.parameters ?? [])
        .filter((p) => p.in !== 'header' && !effectiveConstrained(p.schema))
        .map((p) => ({ operation, location: p.in, field: p.name })),
    );
    const randoms = fc.sample(
      fc.tuple(fc.constantFrom(...freeText), fc.string({ unit: 'grapheme', maxLength: 200 })),
      { seed: SEED, numRuns: RANDOM_CASES },
    );
    tally.random = randoms.length;
    await runPool(randoms.length, 8, (index) => {
      const [target, value] = randoms[index]!;
      const base = baseline(target.operation);
      return send({
        operation: target.operation,
        label: `random ${JSON.stringify(value.slice(0, 20))}`,
        location: target.location,
        field: target.field,
        mustRefuse: false,
        path: target.location === 'path' ? { ...base.path, [target.field]: value } : base.path,
        query: target.location === 'query' ? { ...base.query, [target.field]: value } : base.query,
        headers: { 'x-api-key': RW, ...(base.body ? { 'content-type': 'application/json' } : {}) },
        ...(base.body ? { body: JSON.stringify(base.body) } : {}),
      });
    });

    const crash = mock.crash();
    if (crash) violations.push(`mock crashed: ${JSON.stringify(crash)}`);
    const stats = crash ? undefined : await mock.stats();
    for (const change of stats?.pollution ?? []) violations.push(`prototype pollution: ${change}`);
    if ((stats?.unhandledRejections ?? 0) > 0) violations.push('unhandled rejections');
    for (const event of mock.onErrors)
      violations.push(`internal error: ${event.text.slice(0, 200)}`);
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${n(count)} × ${status}`)
      .join(', ');
    record({
      area: 'Mock platform: bad input',
      subject: `${operations.length} public routes`,
      requests: tally.requests,
      faults: tally.requests,
      held:
        `${n(tally.mustRefuse)} invalid values (wrong types, out of range or length, bad uuids, uris, patterns, ` +
        `non-object bodies) each a 400 naming the field; ${n(tally.mayAccept)} injection-looking or oversized free-text ` +
        `values and ${n(tally.random)} random strings never a 5xx; ${n(tally.credentials)} bad credentials 401/403; ` +
        `every status declared in the OpenAPI document (${summary})` +
        '; no prototype pollution, no internal error',
      violations: violations.length,
    });
    expect(violations.slice(0, 30)).toEqual([]);
  });
});

function effectiveConstrained(schema: Schema): boolean {
  const inner = schema.anyOf?.find((option) => option.type !== 'null') ?? schema;
  return Boolean(
    inner.format ||
      inner.enum ||
      inner.pattern ||
      inner.type === 'integer' ||
      inner.type === 'number',
  );
}
