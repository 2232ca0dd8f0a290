import { IDENTIFICATION_METHODS } from '@questkit/core';
import * as z from 'zod';
import { listedRecords } from './listing.js';
import { defineControlRoute } from './route.js';

const CheckBodySchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).describe('The verification endpoint to check.'),
  apiKey: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("The task's key, sent as X-Api-Key and never recorded; absent: the task has none."),
  identifications: z
    .array(z.enum(IDENTIFICATION_METHODS))
    .max(IDENTIFICATION_METHODS.length)
    .refine((methods) => new Set(methods).size === methods.length, 'a method is named twice')
    .optional()
    .describe("The task's identification methods; absent: every claim shape the contract allows."),
});

const ChecksQuerySchema = z.object({
  endpoint: z.string().optional(),
  questId: z.string().optional(),
});

/**
 * Automatic endpoint checks: running the platform's three checks now, with the judge of
 * `questkit check`, answering the record; the records (manual ones and those started by quest
 * creation); clearing them.
 */
export const ENDPOINT_CHECK_ROUTES = [
  defineControlRoute({
    method: 'POST',
    path: '/__mock/endpoint-checks',
    summary: 'Run the platform’s automatic checks of an endpoint now',
    example: {
      endpoint: 'http://127.0.0.1:4010/verify',
      apiKey: 'demo-task-key',
      identifications: ['email'],
    },
    bodySchema: CheckBodySchema,
    handle: async ({ body, c }, { service }) => c.json(await service.endpointChecks.check(body)),
  }),
  ...listedRecords({
    path: '/__mock/endpoint-checks',
    summary: 'The endpoint checks and their verdicts',
    clearSummary: 'Clear the endpoint checks',
    querySchema: ChecksQuerySchema,
    list: ({ service }, filter) => service.endpointChecks.list(filter),
    clear: ({ service }) => service.endpointChecks.clear(),
  }),
];
