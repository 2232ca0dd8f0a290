import * as z from 'zod';
import { WebhookMutationHeadersSchema } from '../schemas/index.js';
import type { SvcHeader } from './operation.js';

/**
 * Values of `x-svc-mcp-client`. The contract calls it an enumeration without listing the values,
 * so any short client name passes and anything else (spaces, control characters, 65+ characters)
 * is a 400.
 */
export const McpClientSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  .describe(
    'The MCP client making the call (a short name: letters, digits, dot, dash, underscore).',
  );

/** Values of `x-svc-confirmation-token`: a uuid (optional, as the header is). */
export const ConfirmationTokenSchema =
  WebhookMutationHeadersSchema.shape['x-svc-confirmation-token'];

/** Each service header's schema and description. */
export const SVC_HEADER_SCHEMAS: Record<SvcHeader, { schema: z.ZodType; description: string }> = {
  'x-svc-mcp-client': {
    schema: McpClientSchema,
    description: 'The MCP client making the call; validated and recorded.',
  },
  'x-svc-confirmation-token': {
    schema: ConfirmationTokenSchema,
    description: 'A confirmation token (uuid); validated and recorded.',
  },
};
