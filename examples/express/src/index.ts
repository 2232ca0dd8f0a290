/**
 * @module
 * The Express example: a shop whose verification endpoint answers two quests, "subscribe to the
 * newsletter" (needs the member's email) and "buy something" (needs the member's wallet).
 */
export { type AppOptions, createApp } from './app.js';
export { appOptionsOf, type Config, DEMO_TASK_KEY, readConfig } from './config.js';
export {
  DEFAULT_QUEST_IDS,
  INVITES_NEEDED,
  type QuestIds,
  SHOP_URL,
  shopQuests,
} from './quests.js';
export { type RunningServer, type ServerOptions, startServer } from './server.js';
export { createShop, DEMO_SHOP_DATA, type Order, type Shop, type ShopData } from './shop.js';
