import * as z from 'zod';
import { toResponse } from '../http/pipeline.js';
import { CALL_OUTCOMES } from '../service/verification-call.js';
import { listedRecords } from './listing.js';
import { defineControlRoute } from './route.js';

const ClaimBodySchema = z.object({
  userId: z.string().min(1).max(100).describe('The member claiming the quest.'),
});

const CallsQuerySchema = z.object({
  questId: z.string().optional(),
  userId: z.string().optional(),
  subdomain: z.string().optional(),
  outcome: z.enum(CALL_OUTCOMES).optional(),
});

/**
 * Claims and their verification calls: claiming a quest as a member (200 with the claim answer
 * whatever its status; 404 for an unknown community, quest or member; 409 for a quest without
 * API task), the verification calls, and clearing them.
 */
export const CLAIM_ROUTES = [
  defineControlRoute({
    method: 'POST',
    path: '/__mock/communities/{subdomain}/quests/{questId}/claims',
    summary: 'Claim a quest as a member: calls the API tasks’ verification endpoints',
    example: { userId: '10000000-0000-4000-8000-000000000001' },
    bodySchema: ClaimBodySchema,
    handle: async ({ params, body, c }, { service }) => {
      const result = await service.claims.claim({
        subdomain: params.subdomain,
        questId: params.questId,
        userId: body.userId,
      });
      return 'kind' in result ? toResponse(result) : c.json(result);
    },
  }),
  ...listedRecords({
    path: '/__mock/calls',
    summary: 'The verification calls of claims',
    clearSummary: 'Clear the verification calls',
    query: 'outcome=fault',
    querySchema: CallsQuerySchema,
    list: ({ service }, filter) => service.calls.list(filter),
    clear: ({ service }) => service.calls.clear(),
  }),
];
