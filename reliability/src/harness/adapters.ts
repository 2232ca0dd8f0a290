import { ADAPTERS, type AdapterName } from '../servers/protocol.js';

/** Human names of the adapters, for the results table. */
export const ADAPTER_LABELS: Record<AdapterName, string> = {
  express: 'express 5',
  express4: 'express 4',
  fastify: 'fastify 5',
  hono: 'hono 4',
};

/**
 * The adapters a suite runs against: all of them, or the comma-separated QUESTKIT_ADAPTERS
 * (to rerun one while investigating).
 */
export const SUITE_ADAPTERS: readonly AdapterName[] = process.env.QUESTKIT_ADAPTERS
  ? ADAPTERS.filter((adapter) => process.env.QUESTKIT_ADAPTERS?.split(',').includes(adapter))
  : ADAPTERS;
