// Type tests, checked by the package's typecheck: a handler reads what the platform sends, and
// reading a field it does not send (the flat shapes of earlier versions) fails the compiler.

import type { KnownWebhookEvent, WebhookEventOf } from '../schemas/webhook-events.js';
import type { KnownEventType } from '../schemas/webhooks.js';
import { createWebhookReceiver } from './receiver.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assert = <T extends true>(_: T) => undefined;

/** Every known event type has a typed event, and no other does. */
assert<Same<KnownWebhookEvent['type'], KnownEventType>>(true);

createWebhookReceiver({
  secret: 's',
  on: {
    QUEST_SUCCEEDED: (event) => {
      assert<Same<typeof event.data.user.id, string>>(true);
      assert<Same<typeof event.data.user.email, string | null>>(true);
      assert<Same<typeof event.data.quest.xp, number | null>>(true);
      assert<Same<typeof event.data.community.subdomain, string>>(true);
      assert<Same<typeof event.time, number>>(true);
      // @ts-expect-error the platform sends no top-level userId
      void event.userId;
      // @ts-expect-error nor a flat data.userId: it is data.user.id
      void event.data.userId;
      // @ts-expect-error nor a flat data.questId: it is data.quest.id
      void event.data.questId;
      // @ts-expect-error the envelope has time, not createdAt
      void event.createdAt;
      // @ts-expect-error nor a communityId at the top: it is data.community.id
      void event.communityId;
    },
    QUEST_CLAIM_STATUS_UPDATED: (event) => {
      const status: string = event.data.status;
      void status;
    },
    SPRINT_ENDED: (event) => {
      assert<Same<typeof event.data.sprint.endingAt, string>>(true);
      // @ts-expect-error a sprint event names no member
      void event.data.user;
    },
    USER_BANNED: (event) => {
      const reason: string | null = event.data.reason;
      void reason;
    },
    // @ts-expect-error QUEST_CLAIM_FAILED is not a type the platform sends
    QUEST_CLAIM_FAILED: () => {},
  },
});

/** A nested object names only the fields the platform sends. */
type User = WebhookEventOf<'JOINED_COMMUNITY'>['data']['user'];
// @ts-expect-error no userId inside user: it is user.id
const _missing: User['userId'] = 'x';
void _missing;
