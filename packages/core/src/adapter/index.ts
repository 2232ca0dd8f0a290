/**
 * @module
 * `@questkit/core/adapter`: what adapter authors need and app authors do not. Every adapter
 * reaches core's endpoints through this one door.
 */
export type { DoorAnswer, DoorBody, DoorEndpoint, DoorRequest } from './door.js';
