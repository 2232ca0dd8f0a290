import type { VerificationRequest } from '@questkit/core';
import { REDACTED } from '@questkit/core/api';
import * as z from 'zod';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { CLAIM_OUTCOMES } from '../service/recorded-claims.js';
import { callVerificationEndpoint } from '../service/verification-call.js';
import { listedRecords } from './listing.js';
import { defineControlRoute } from './route.js';

const ClaimsQuerySchema = z.object({
  subdomain: z.string().optional(),
  questId: z.string().optional(),
  userId: z.string().optional(),
  outcome: z.enum(CLAIM_OUTCOMES).optional(),
});

/**
 * The journal of claims: every claim, oldest first, whatever its outcome (`claimed`,
 * `not-verified`, `key-refused`, `refused`, `endpoint-fault`); clearing it; and replaying a task's recorded
 * verification call (same URL and body, the task's API key as it is now), answering the new call,
 * judged, without recording it as a claim.
 */
export const RECORDED_CLAIM_ROUTES = [
  ...listedRecords({
    path: '/__mock/claims',
    summary:
      'Every claim, whatever its outcome (claimed, in-review, not-verified, key-refused, refused, endpoint-fault)',
    clearSummary: 'Clear the journal of claims',
    query: 'outcome=refused',
    querySchema: ClaimsQuerySchema,
    list: ({ service }, filter) => service.claimJournal.list(filter),
    clear: ({ service }) => service.claimJournal.clear(),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__mock/claims/{requestId}/tasks/{taskId}/replay',
    summary: 'Send a claim’s verification call again, with the task’s current key',
    handle: async ({ params: { requestId, taskId }, c }, { context, service }) => {
      const claim = service.claimJournal.get(requestId);
      if (!claim) return toResponse(apiError(404, `Claim ${requestId} not found in the journal`));
      const report = claim.tasks.find((task) => task.taskId === taskId);
      if (!report)
        return toResponse(apiError(404, `Task ${taskId} is not part of claim ${requestId}`));
      if (!report.request) {
        return toResponse(
          apiError(
            409,
            `Task ${taskId} made no call in claim ${requestId}: there is nothing to replay`,
          ),
        );
      }
      // The recorded request has its key redacted: the replay sends the task's key as it is now.
      // A key short enough to occur inside the body was redacted there too: that body is lost.
      const recorded = report.request.body ?? '';
      if (recorded.includes(REDACTED)) {
        return toResponse(
          apiError(
            409,
            `The recorded body of task ${taskId} in claim ${requestId} shows ${REDACTED} where the task's API key occurred in it: it cannot be sent again as it was`,
          ),
        );
      }
      const task = context.store.quests.get(claim.questId)?.tasks.find((t) => t.id === taskId);
      const body = JSON.parse(recorded) as VerificationRequest;
      const call = await callVerificationEndpoint(report.request.url, body, {
        apiKey: task?.settings.apiKey,
        timeoutMs: service.verificationTimeoutMs,
        post: (url, options) => service.outbound.post('claim', url, options),
      });
      return c.json({ at: context.clock.now().toISOString(), requestId, taskId, ...call });
    },
  }),
];
