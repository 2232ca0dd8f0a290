import * as z from 'zod';
import { apiError } from '../errors.js';
import { toResponse } from '../http/pipeline.js';
import { defineControlRoute } from './route.js';

// A year: far more than any retry schedule, small enough that a typo is caught.
const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000;

const AdvanceBodySchema = z.object({
  ms: z.number().int().min(0).max(MAX_ADVANCE_MS).describe('How far to move the clock, in ms.'),
});

/**
 * The clock: `{now, mode, pendingRetries}`; advancing a manual clock runs the retries that fall
 * due and answers `{now, ran, pending}` once they have run (409 on the system clock).
 */
export const CLOCK_ROUTES = [
  defineControlRoute({
    method: 'GET',
    path: '/__mock/clock',
    summary: 'The test clock and the pending retries',
    handle: ({ c }, { context, service }) =>
      c.json({
        now: context.clock.now().toISOString(),
        mode: service.scheduler.mode === 'manual' ? 'manual' : 'system',
        pendingRetries: service.scheduler.pending(),
      }),
  }),
  defineControlRoute({
    method: 'POST',
    path: '/__mock/clock/advance',
    summary: 'Move a manual clock, running the retries that fall due',
    example: { ms: 60_000 },
    bodySchema: AdvanceBodySchema,
    handle: async ({ body, c }, { service }) => {
      if (service.scheduler.mode !== 'manual') {
        return toResponse(
          apiError(
            409,
            'The platform runs on the system clock, which cannot be moved; start it with a manual clock (questkit mock --clock manual, or the option clock: createManualClock())',
          ),
        );
      }
      return c.json(await service.advanceClock(body.ms));
    },
  }),
];
