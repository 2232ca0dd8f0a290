// Type tests, checked by the package's typecheck: the named types of `types.ts` are the schemas'
// types (a field added to a schema and not to its named type, or the reverse, fails here).
import type { z } from 'zod';
import type { KnownEventType } from '../schemas/index.js';
import type { ApiOperations, ApiRequestBodyTypes, ApiResponseTypes, OperationId } from './index.js';

/** Mutually assignable: an `EventType` (known names or any string) is a string both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assert = <T extends true>(_: T) => undefined;

type ResponseOf<K extends OperationId> = ApiOperations[K]['response'];
type NamedResponse<K extends OperationId> =
  ResponseOf<K> extends {
    name: infer N extends keyof ApiResponseTypes;
  }
    ? ApiResponseTypes[N]
    : undefined;
type SchemaResponse<K extends OperationId> =
  ResponseOf<K> extends {
    schema: infer S extends z.ZodType;
  }
    ? z.output<S>
    : undefined;

/** true for every operation whose named answer is its schema's answer. */
type ResponsesAgree = { [K in OperationId]: Same<NamedResponse<K>, SchemaResponse<K>> };
assert<ResponsesAgree[OperationId]>(true);

type BodySchema<K extends OperationId> = ApiOperations[K] extends {
  body: infer B extends z.ZodType;
}
  ? B
  : never;
/** Every operation with a body has a named body type, and no other does. */
assert<
  Same<
    keyof ApiRequestBodyTypes,
    { [K in OperationId]: BodySchema<K> extends never ? never : K }[OperationId]
  >
>(true);
/**
 * A named body is a valid input of its schema, with the same fields, and differs from it only in
 * `events` (narrowed to the known event types).
 */
type BodiesAgree = {
  [K in keyof ApiRequestBodyTypes]: [ApiRequestBodyTypes[K]] extends [z.input<BodySchema<K>>]
    ? Same<keyof ApiRequestBodyTypes[K], keyof z.input<BodySchema<K>>> extends true
      ? Same<Omit<ApiRequestBodyTypes[K], 'events'>, Omit<z.input<BodySchema<K>>, 'events'>>
      : false
    : false;
};
assert<BodiesAgree[keyof ApiRequestBodyTypes]>(true);

/** A webhook subscribes to known event types only: a misspelt one is an error. */
export const created: ApiRequestBodyTypes['createWebhook'] = {
  name: 'hook',
  uri: 'https://example.com/hook',
  active: true,
  // @ts-expect-error 'QUEST_CLAIMD' is not a known event type
  events: ['QUEST_CLAIMD'],
};
assert<Same<NonNullable<ApiRequestBodyTypes['updateWebhook']['events']>[number], KnownEventType>>(
  true,
);
