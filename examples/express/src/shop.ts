/**
 * The shop's own data: who reads the newsletter and which wallets paid for an order. A real shop
 * asks its mailing-list provider and its order database; this one keeps both in memory, behind
 * the same asynchronous interface, so the verification code reads like the real thing.
 */
export interface Shop {
  /** Whether this email address is subscribed to the newsletter (case does not matter). */
  isSubscribed(email: string, signal: AbortSignal): Promise<boolean>;
  /** The orders paid from this wallet (case of the hex address does not matter). */
  ordersOf(wallet: string, signal: AbortSignal): Promise<Order[]>;
}

/** One paid order. */
export interface Order {
  id: string;
  wallet: string;
  item: string;
  paidAt: string;
}

/** What a {@link createShop} starts with. */
export interface ShopData {
  subscribers: readonly string[];
  orders: readonly Order[];
}

/**
 * The demo data. The members are those of the mock platform's demo community: ada subscribed and
 * bought a hoodie, gus subscribed; ben (who signed up as `Ben@Example.com`) and hana never
 * subscribed; jay's wallet has no order.
 */
export const DEMO_SHOP_DATA: ShopData = {
  subscribers: ['ada@example.com', 'gus@example.com'],
  orders: [
    {
      id: 'order-1001',
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      item: 'Community hoodie',
      paidAt: '2025-03-02T10:15:00.000Z',
    },
  ],
};

// Email addresses and hex wallet addresses are compared without case: members type them as they
// like, and the platform passes on what they typed.
const normalize = (value: string) => value.trim().toLowerCase();

/**
 * An in-memory shop.
 *
 * @example
 * const shop = createShop({ subscribers: ['ada@example.com'], orders: [] });
 * await shop.isSubscribed('Ada@Example.com', AbortSignal.timeout(1000)); // true
 */
export function createShop(data: ShopData = DEMO_SHOP_DATA): Shop {
  const subscribers = new Set(data.subscribers.map(normalize));
  const orders = [...data.orders];
  return {
    async isSubscribed(email, signal) {
      signal.throwIfAborted();
      return subscribers.has(normalize(email));
    },
    async ordersOf(wallet, signal) {
      signal.throwIfAborted();
      return orders.filter((order) => normalize(order.wallet) === normalize(wallet));
    },
  };
}
