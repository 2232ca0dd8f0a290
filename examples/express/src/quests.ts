import type { Client } from '@questkit/client';
import { defineQuest, fail, ok, type QuestRoute } from '@questkit/core';
import type { Shop } from './shop.js';

/** The platform ids of the two quests this endpoint verifies. */
export interface QuestIds {
  /** "Subscribe to our newsletter": needs the member's email. */
  newsletter: string;
  /** "Buy something in the shop": needs the member's wallet. */
  purchase: string;
  /**
   * "Invite 3 friends": reads the member's invites from the platform's public API, so it runs
   * only with a platform client (`PLATFORM_API_KEY`). No default: the mock seeds no such quest.
   */
  invites?: string;
}

/** Active invites the "invite friends" quest asks for. */
export const INVITES_NEEDED = 3;

/**
 * The mock platform's seeded demo quests "Verify your email" and "Connect your wallet", whose
 * tasks call `http://127.0.0.1:4010/verify`: with `questkit mock` running, this example answers
 * them without any configuration. Set your own quest ids through the environment.
 */
export const DEFAULT_QUEST_IDS: QuestIds = {
  newsletter: '20000000-0000-4000-8000-000000000001',
  purchase: '20000000-0000-4000-8000-000000000002',
};

/** Where members go to do what a quest asks; quoted in the failure messages. */
export const SHOP_URL = 'https://shop.example';

/**
 * The quest router: one handler per quest, each declaring the account it needs. A claim without
 * that account never reaches the handler: the member is told to link it.
 */
export function shopQuests(shop: Shop, ids: QuestIds, platform?: Client) {
  const given = [ids.newsletter, ids.purchase, ids.invites].filter((id) => id !== undefined);
  if (new Set(given).size !== given.length) {
    throw new TypeError('[@questkit/example-express] each quest needs its own id');
  }
  if (ids.invites !== undefined && !platform) {
    throw new TypeError(
      '[@questkit/example-express] the invites quest reads the platform: give a platform client (PLATFORM_API_KEY)',
    );
  }
  const invites: Record<string, QuestRoute> =
    ids.invites !== undefined && platform ? { [ids.invites]: invitesQuest(platform) } : {};
  return {
    ...invites,
    [ids.newsletter]: defineQuest({
      requires: ['email'],
      verify: async ({ accounts, signal }) =>
        (await shop.isSubscribed(accounts.email, signal))
          ? ok('Thanks for reading our newsletter! Quest complete.')
          : fail(
              `Your email address is not on our newsletter list yet. Subscribe at ${SHOP_URL}/newsletter with the email address of your profile, then claim again.`,
            ),
    }),
    [ids.purchase]: defineQuest({
      requires: ['wallet'],
      verify: async ({ accounts, signal }) => {
        const orders = await shop.ordersOf(accounts.wallet, signal);
        if (orders.length === 0) {
          return fail(
            `We found no order paid from your wallet. Buy anything at ${SHOP_URL} with the wallet of your profile, then claim again (new orders can take a minute to show).`,
          );
        }
        return ok(`Thanks for your order of ${orders[0]!.item}! Quest complete.`);
      },
    }),
  };
}

/**
 * "Invite 3 friends": counts the member's active invites through the platform's public API
 * (`listInvites`, page by page) and stops as soon as there are enough.
 */
function invitesQuest(platform: Client): QuestRoute {
  return defineQuest({
    verify: async ({ claim, signal }) => {
      let active = 0;
      for await (const _invite of platform.paginate('listInvites', {
        userId: claim.userId,
        status: 'active',
        signal,
      })) {
        active += 1;
        if (active >= INVITES_NEEDED)
          return ok('Thanks for bringing your friends! Quest complete.');
      }
      const missing = INVITES_NEEDED - active;
      return fail(
        `You have ${active} active invite${active === 1 ? '' : 's'}: invite ${missing} more friend${missing === 1 ? '' : 's'} with your referral link (an invite counts once your friend has earned their first xp), then claim again.`,
      );
    },
  });
}
