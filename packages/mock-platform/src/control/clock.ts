import { Hono } from 'hono';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import type { MockService } from '../service/service.js';
import { readBody } from './request.js';

// A year: far more than any retry schedule, small enough that a typo is caught.
const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000;

const AdvanceBodySchema = z.object({
  ms: z.number().int().min(0).max(MAX_ADVANCE_MS).describe('How far to move the clock, in ms.'),
});

/**
 * The clock: `GET /clock` -> `{now, mode, pendingRetries}`; `POST /clock/advance` `{ms}` moves a
 * manual clock forward, running the retries that fall due (409 on the system clock), and answers
 * `{now, ran, pending}` once they have run.
 */
export function clockRoutes(context: MockContext, service: MockService): Hono {
  const routes = new Hono();
  routes.get('/clock', (c) =>
    c.json({
      now: context.clock.now().toISOString(),
      mode: service.scheduler.mode === 'manual' ? 'manual' : 'system',
      pendingRetries: service.scheduler.pending(),
    }),
  );
  routes.post('/clock/advance', async (c) => {
    if (service.scheduler.mode !== 'manual') {
      return toResponse(
        apiError(
          409,
          'The platform runs on the system clock, which cannot be moved; start it with a manual clock (questkit mock --clock manual, or the option clock: createManualClock())',
        ),
      );
    }
    const body = await readBody(c.req.raw, AdvanceBodySchema);
    if (!body.ok) return body.response;
    return c.json(await service.advanceClock(body.data.ms));
  });
  return routes;
}
