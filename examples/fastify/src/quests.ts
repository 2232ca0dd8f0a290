import { defineQuest, fail, ok } from '@questkit/core';
import { type Meetup, MIN_MINUTES } from './meetup.js';

/** The platform ids of the two quests this endpoint verifies. */
export interface QuestIds {
  /** "Register for the community call": needs the member's email. */
  registered: string;
  /** "Attend the community call": needs the member's Discord account. */
  attended: string;
}

/**
 * The mock platform's seeded demo quests "Verify your email" and "Join our Discord", whose tasks
 * call `http://127.0.0.1:4010/verify`: with `questkit mock` running, this example answers them
 * without any configuration. Set your own quest ids through the environment.
 */
export const DEFAULT_QUEST_IDS: QuestIds = {
  registered: '20000000-0000-4000-8000-000000000001',
  attended: '20000000-0000-4000-8000-000000000003',
};

/** Where members register; quoted in the failure message. */
export const REGISTER_URL = 'https://meetup.example/call';

/**
 * The quest router: one handler per quest, each declaring the account it needs (`defineQuest`
 * types it as present). A claim without that account never reaches the handler.
 */
export function meetupQuests(meetup: Meetup, ids: QuestIds) {
  if (ids.registered === ids.attended) {
    throw new TypeError('[@questkit/example-fastify] the two quests need different ids');
  }
  return {
    [ids.registered]: defineQuest({
      requires: ['email'],
      verify: async ({ accounts, signal }) =>
        (await meetup.isRegistered(accounts.email, signal))
          ? ok("You're registered for the community call. See you there!")
          : fail(
              `We found no registration for the email address of your profile. Register at ${REGISTER_URL}, then claim again.`,
            ),
    }),
    [ids.attended]: defineQuest({
      requires: ['discord'],
      verify: async ({ accounts, signal }) => {
        const minutes = await meetup.minutesAttended(accounts.discord.id, signal);
        if (minutes >= MIN_MINUTES)
          return ok('Thanks for joining the community call! Quest complete.');
        return fail(
          minutes > 0
            ? `You were in the call for ${minutes} minutes; the quest needs ${MIN_MINUTES}. Join the next one on Discord.`
            : `We did not see ${accounts.discord.handle} in the community call. Join the next one on Discord, then claim again.`,
        );
      },
    }),
  };
}
