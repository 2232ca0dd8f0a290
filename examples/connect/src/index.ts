/**
 * @module
 * The connect example: a community web app with its own login and session cookie that links its
 * members to platform members through the identity-connect flow, shows the link, and verifies
 * quests that identify members by it (`accounts["svc-connect"]`).
 */
export { type AppOptions, createApp } from './app.js';
export {
  type Community,
  createCommunity,
  DEMO_MEMBERS,
  type Member,
  type MemberSeed,
  type PlatformLink,
  SESSION_TTL_MS,
  type Session,
} from './community.js';
export { type Config, DEMO_CONNECT_SECRET, DEMO_TASK_KEY, readConfig } from './config.js';
export { COMMUNITY_NAME, escapeHtml } from './pages.js';
export { type ConnectRedisOptions, connectRedis } from './redis-start.js';
export { type RunningServer, type ServerOptions, startServer } from './server.js';
export {
  type AppState,
  createMemoryState,
  createRedisState,
  type RedisCommands,
  type RedisStateOptions,
  StateUnavailableError,
} from './state.js';
