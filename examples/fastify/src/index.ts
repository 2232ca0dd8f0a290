/**
 * @module
 * The Fastify example: a meetup whose verification endpoint answers two quests, "register for the
 * community call" (needs the member's email) and "attend it" (needs the member's Discord account).
 */
export { type AppOptions, createApp } from './app.js';
export { type Config, DEMO_TASK_KEY, readConfig } from './config.js';
export {
  createMeetup,
  DEMO_MEETUP_DATA,
  type Meetup,
  type MeetupData,
  MIN_MINUTES,
} from './meetup.js';
export { DEFAULT_QUEST_IDS, meetupQuests, type QuestIds, REGISTER_URL } from './quests.js';
export { type RunningServer, type ServerOptions, startServer } from './server.js';
