import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  API_ERROR_STATUSES,
  API_OPERATIONS,
  API_PREFIX,
  type ApiOperation,
  OPERATION_IDS,
} from './index.js';

const operations = OPERATION_IDS.map((id) => [id, API_OPERATIONS[id] as ApiOperation] as const);

describe('the public API contract', () => {
  it('names each operation by its key, once per method and path', () => {
    const routes = new Set<string>();
    for (const [id, operation] of operations) {
      expect(operation.operationId).toBe(id);
      routes.add(`${operation.method} ${operation.path}`);
    }
    expect(routes.size).toBe(OPERATION_IDS.length);
    expect(OPERATION_IDS).toHaveLength(29);
  });

  it.each(operations)('%s: the path parameters are exactly the params schema', (_id, operation) => {
    const inPath = [...`${API_PREFIX}${operation.path}`.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const shape = (operation.params as z.ZodObject).shape;
    expect(Object.keys(shape).sort()).toEqual(inPath.sort());
    if (operation.selfParam) expect(inPath).toContain(operation.selfParam);
  });

  it.each(operations)('%s: declares only statuses of the API, each once', (_id, operation) => {
    expect(new Set(operation.errors).size).toBe(operation.errors.length);
    for (const status of operation.errors) expect(API_ERROR_STATUSES).toContain(status);
  });

  it('declares every status of the contract on community lookup, modules, webhook routes and the documented ones', () => {
    // The platform's documentation declares them on the operations it adds (docs notes §2).
    const documented = ['Members', 'Leaderboard'];
    const contract = operations.filter(
      ([id, operation]) =>
        operation.tag === 'Community' ||
        operation.tag === 'Webhooks' ||
        documented.includes(operation.tag) ||
        id === 'updateQuest',
    );
    expect(contract.map(([id]) => id)).toHaveLength(18);
    for (const [, operation] of contract) {
      expect([...operation.errors]).toEqual([400, 401, 403, 404, 409, 429, 500]);
    }
  });

  it('rejects an api task without endpoint in the creation body, naming the field', () => {
    const result = API_OPERATIONS.createQuest.body.safeParse({
      categoryId: '00000000-0000-4000-8000-000000000000',
      name: 'q',
      published: true,
      recurrence: 'daily',
      conditionOperator: 'AND',
      tasks: [{ type: 'api', settings: {} }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(
      'tasks.0.settings.endpoint',
    );
  });

  it.each(
    operations,
  )('%s: pages exactly when its query names a page or a cursor', (_id, operation) => {
    const query = Object.keys((operation.query as z.ZodObject | undefined)?.shape ?? {});
    const paging = operation.paging;
    expect(paging !== undefined).toBe(query.includes('page') || query.includes('cursor'));
    if (!paging) return;
    expect(query).toContain(paging.size);
    expect(query).toContain(paging.next.param);
    const sizeField = (operation.query as z.ZodObject).shape[paging.size] as z.ZodType;
    expect(sizeField.safeParse(String(paging.maxSize)).success).toBe(true);
    expect(sizeField.safeParse(String(paging.maxSize + 1)).success).toBe(false);
  });
});
