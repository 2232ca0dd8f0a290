import type { Client } from '@questkit/client';
import { defineQuest, fail, ok, type QuestRoute } from '@questkit/core';
import type { Guild } from './guild.js';

/** The platform ids of the two quests this endpoint verifies. */
export interface QuestIds {
  /** "Join our Discord and pick a role": needs the member's Discord account. */
  discord: string;
  /** "Hold a membership pass": needs the member's wallet. */
  pass: string;
  /**
   * "Reach level N": reads the member from the platform's public API, so it runs only with a
   * platform client (`PLATFORM_API_KEY`). No default: the mock seeds no such quest.
   */
  level?: string;
}

/** The level the "reach level N" quest asks for, unless configured. */
export const DEFAULT_LEVEL_NEEDED = 5;

/**
 * The mock platform's seeded demo quests "Join our Discord" and "Connect your wallet", whose
 * tasks call `http://127.0.0.1:4010/verify`: with `questkit mock` running, this example answers
 * them without any configuration. Set your own quest ids through the environment.
 */
export const DEFAULT_QUEST_IDS: QuestIds = {
  discord: '20000000-0000-4000-8000-000000000003',
  pass: '20000000-0000-4000-8000-000000000002',
};

/** Where members get a pass; quoted in the failure message. */
export const PASS_URL = 'https://guild.example/pass';

/**
 * The quest router: one handler per quest, each declaring the account it needs. A claim without
 * that account never reaches the handler: the member is told to link it.
 */
export function guildQuests(
  guild: Guild,
  ids: QuestIds,
  platform?: Client,
  levelNeeded: number = DEFAULT_LEVEL_NEEDED,
) {
  const given = [ids.discord, ids.pass, ids.level].filter((id) => id !== undefined);
  if (new Set(given).size !== given.length) {
    throw new TypeError('[@questkit/example-hono] each quest needs its own id');
  }
  if (ids.level !== undefined && !platform) {
    throw new TypeError(
      '[@questkit/example-hono] the level quest reads the platform: give a platform client (PLATFORM_API_KEY)',
    );
  }
  const level: Record<string, QuestRoute> =
    ids.level !== undefined && platform ? { [ids.level]: levelQuest(platform, levelNeeded) } : {};
  return {
    ...level,
    [ids.discord]: defineQuest({
      requires: ['discord'],
      verify: async ({ accounts, signal }) => {
        const roles = await guild.rolesOf(accounts.discord.id, signal);
        if (roles === null) {
          return fail(
            `${accounts.discord.handle} has not joined our Discord server yet. Join it, pick a role in #roles, then claim again.`,
          );
        }
        if (roles.length === 0) {
          return fail(
            'You joined our Discord server: now pick a role in #roles, then claim again.',
          );
        }
        return ok(`Welcome to the guild, ${accounts.discord.handle}! Quest complete.`);
      },
    }),
    [ids.pass]: defineQuest({
      requires: ['wallet'],
      verify: async ({ accounts, signal }) =>
        (await guild.passesOf(accounts.wallet, signal)) > 0
          ? ok('Your membership pass is valid. Quest complete.')
          : fail(
              `The wallet of your profile holds no membership pass. Get one at ${PASS_URL}, then claim again.`,
            ),
    }),
  };
}

/** "Reach level N": reads the member's level through the platform's public API (`getUser`). */
function levelQuest(platform: Client, needed: number): QuestRoute {
  return defineQuest({
    verify: async ({ claim, signal }) => {
      const member = await platform.getUser({ userId: claim.userId, signal });
      return member.level >= needed
        ? ok(`Level ${member.level}: you made it to level ${needed}! Quest complete.`)
        : fail(
            `You are level ${member.level}: earn more xp in our other quests to reach level ${needed}, then claim again.`,
          );
    },
  });
}
