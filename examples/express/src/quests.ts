import { defineQuest, fail, ok } from '@questkit/core';
import type { Shop } from './shop.js';

/** The platform ids of the two quests this endpoint verifies. */
export interface QuestIds {
  /** "Subscribe to our newsletter": needs the member's email. */
  newsletter: string;
  /** "Buy something in the shop": needs the member's wallet. */
  purchase: string;
}

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
export function shopQuests(shop: Shop, ids: QuestIds) {
  if (ids.newsletter === ids.purchase) {
    throw new TypeError('[@questkit/example-express] the two quests need different ids');
  }
  return {
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
