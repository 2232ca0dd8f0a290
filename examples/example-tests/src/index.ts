/**
 * @module
 * The tests the framework examples (Express, Fastify, Hono) share: each example calls them with
 * its own package, quest and claim, so the examples' sources stay apart and their tests say the
 * same thing in one place.
 */
export { describeConformance } from './conformance.js';
export { describeStart, type StartTest } from './start.js';
