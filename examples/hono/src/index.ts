/**
 * @module
 * The Hono example: a guild whose verification endpoint answers two quests, "join our Discord and
 * pick a role" (needs the member's Discord account) and "hold a membership pass" (needs the
 * member's wallet).
 */
export { type AppOptions, createApp } from './app.js';
export { appOptionsOf, type Config, DEMO_TASK_KEY, readConfig } from './config.js';
export {
  createGuild,
  DEMO_GUILD_DATA,
  type Guild,
  type GuildCredit,
  type GuildData,
} from './guild.js';
export {
  DEFAULT_LEVEL_NEEDED,
  DEFAULT_QUEST_IDS,
  guildQuests,
  PASS_URL,
  type QuestIds,
} from './quests.js';
export { type RunningServer, type ServerOptions, startServer } from './server.js';
