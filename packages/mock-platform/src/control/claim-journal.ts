import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { CLAIM_OUTCOMES } from '../service/claim-journal.js';
import type { MockService } from '../service/service.js';
import { callVerificationEndpoint } from '../service/verification-call.js';
import { readQuery } from './request.js';

const ClaimsQuerySchema = z.object({
  subdomain: z.string().optional(),
  questId: z.string().optional(),
  userId: z.string().optional(),
  outcome: z.enum(CLAIM_OUTCOMES).optional(),
});

/**
 * The journal of claims: `GET /claims?subdomain=&questId=&userId=&outcome=` lists every claim,
 * oldest first, whatever its outcome (`claimed`, `not-verified`, `refused`, `endpoint-fault`);
 * `DELETE /claims` clears it; `POST /claims/{requestId}/tasks/{taskId}/replay` sends a task's
 * recorded verification call again (same URL and body, the task's API key as it is now) and
 * answers the new call, judged, without recording it as a claim.
 */
export function claimJournalRoutes(context: MockContext, service: MockService): Hono {
  const routes = new Hono();
  routes.get('/claims', (c) => {
    const query = readQuery(c.req.raw, ClaimsQuerySchema);
    if (!query.ok) return query.response;
    return c.json(service.claimJournal.list(query.data));
  });
  routes.delete('/claims', (c) => {
    service.claimJournal.clear();
    return c.body(null, 200);
  });
  routes.post('/claims/:requestId/tasks/:taskId/replay', async (c) => {
    const { requestId, taskId } = c.req.param();
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
    const task = context.store.quests.get(claim.questId)?.tasks.find((t) => t.id === taskId);
    const call = await callVerificationEndpoint(report.request.url, report.request.body, {
      apiKey: task?.settings.apiKey,
      timeoutMs: service.verificationTimeoutMs,
    });
    return c.json({ at: context.clock.now().toISOString(), requestId, taskId, ...call });
  });
  return routes;
}
