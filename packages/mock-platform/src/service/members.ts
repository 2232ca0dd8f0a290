import { type User, UserRoleSchema, type WebhookDeliveryRecord } from '@questkit/core/api';
import * as z from 'zod';
import type { MockContext } from '../context.js';
import { type ApiFailure, apiError, invalid } from '../errors.js';
import { randomId } from '../ids.js';
import { levelForXp } from '../levels.js';
import type { CommunityRecord, UserRecord } from '../store/records.js';
import { userById } from '../views/users.js';
import { deliveryView } from '../views/webhooks.js';
import type { Deliveries } from './webhooks/deliveries.js';
import { memberEventData } from './webhooks/event-data.js';

const optionalText = () => z.string().min(1).max(256).nullable().optional();
const addresses = () => z.record(z.string().min(1).max(64), z.string().min(1).max(256)).optional();

/**
 * The body of the member-join control route: the member's fields, all optional. Unknown keys
 * are refused, so a misspelt field is a 400 rather than a member without it.
 */
export const MemberJoinBodySchema = z.strictObject({
  id: z.uuid().optional().describe('The new member id; generated when absent.'),
  name: optionalText(),
  avatar: z.url().nullable().optional(),
  email: z.email().nullable().optional(),
  connectedWallet: optionalText(),
  discordId: optionalText(),
  discordHandle: optionalText(),
  twitterId: optionalText(),
  twitterUsername: optionalText(),
  tiktokUsername: optionalText(),
  verifiedBlockchainAddresses: addresses(),
  unVerifiedBlockchainAddresses: addresses(),
  xp: z.number().int().min(0).max(2_147_483_647).optional(),
  role: UserRoleSchema.nullable().optional(),
  referrerId: z.uuid().nullable().optional().describe('The inviting member: an invite is created.'),
  referrerUrl: z.url().nullable().optional(),
});
/** The body of the member-join control route. */
export type MemberJoinBody = z.infer<typeof MemberJoinBodySchema>;

/** The answer of a join: the member as the lookup by id shows it, and the deliveries it caused. */
export interface JoinResult {
  user: User;
  deliveries: WebhookDeliveryRecord[];
}

/**
 * Adds a member to a community and fires `JOINED_COMMUNITY`. Answers 409 when the id or one of
 * the identifiers is another member's, 400 when the referrer is not a member. Ranks follow from the
 * store's leaderboard (the members behind the newcomer move down); the record keeps its place on
 * joining.
 */
export function joinCommunity(
  context: MockContext,
  deliveries: Deliveries,
  community: CommunityRecord,
  body: MemberJoinBody,
): { user: UserRecord; settled: Promise<WebhookDeliveryRecord[]> } | ApiFailure {
  const { store, clock } = context;
  const id = body.id ?? randomId();
  if (store.users.get(id)) return apiError(409, `A user with id ${id} already exists`);
  if (body.referrerId) {
    const referrer = store.users.get(body.referrerId);
    if (!referrer || referrer.communityId !== community.id) {
      return invalid('body', 'referrerId', `is not a member of community ${community.subdomain}`);
    }
  }
  const now = clock.now().toISOString();
  const xp = body.xp ?? 0;
  let ahead = 0;
  for (const member of store.users.list()) {
    if (member.communityId === community.id && member.deletedAt === null && member.xp > xp)
      ahead += 1;
  }
  const role = body.role === undefined ? 'guest' : body.role;
  const user: UserRecord = {
    id,
    communityId: community.id,
    avatar: body.avatar ?? null,
    name: body.name ?? null,
    email: body.email ?? null,
    connectedWallet: body.connectedWallet ?? null,
    discordId: body.discordId ?? null,
    discordHandle: body.discordHandle ?? null,
    twitterId: body.twitterId ?? null,
    twitterUsername: body.twitterUsername ?? null,
    tiktokUsername: body.tiktokUsername ?? null,
    verifiedBlockchainAddresses: { ...body.verifiedBlockchainAddresses },
    unVerifiedBlockchainAddresses: { ...body.unVerifiedBlockchainAddresses },
    xp,
    rank: ahead + 1,
    level: levelForXp(xp),
    karma: 0,
    flags: 0,
    stars: 0,
    role,
    isBanned: role === 'banned',
    banReason: null,
    referrerUrl: body.referrerUrl ?? null,
    referrerId: body.referrerId ?? null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    restoredAt: null,
  };
  try {
    store.users.put(user);
  } catch (error) {
    // The store refuses an identifier another member of the community holds.
    // Its message names the new member's id, which was never created: say only whose it is.
    const detail =
      error instanceof Error ? error.message.replace(/^\[[^\]]+\]\s*user \S+ has /, '') : '';
    return apiError(409, `An identifier is already another member's: ${detail}`);
  }
  if (body.referrerId) {
    store.invites.put({
      communityId: community.id,
      inviterId: body.referrerId,
      userId: id,
      status: xp >= community.inviteMinXp ? 'active' : 'pending',
      joinedAt: now,
      questId: null,
    });
  }
  const { settled } = deliveries.emit(
    community,
    'JOINED_COMMUNITY',
    memberEventData(community, user),
  );
  return {
    user,
    settled: settled.then((records) => records.map(deliveryView)),
  };
}

/**
 * A member leaves the community: the record is marked deleted (`deletedAt`, as the contract's
 * deleted users are) and `LEFT_COMMUNITY` fires. 404 for a non-member or one already gone.
 */
export function leaveCommunity(
  context: MockContext,
  deliveries: Deliveries,
  community: CommunityRecord,
  userId: string,
): { user: UserRecord; settled: Promise<WebhookDeliveryRecord[]> } | ApiFailure {
  const { store, clock } = context;
  const user = store.users.get(userId);
  if (!user || user.communityId !== community.id || user.deletedAt !== null) {
    return apiError(404, `User ${userId} is not a member of community ${community.subdomain}`);
  }
  const now = clock.now().toISOString();
  const left: UserRecord = { ...user, deletedAt: now, updatedAt: now };
  store.users.put(left);
  const { settled } = deliveries.emit(
    community,
    'LEFT_COMMUNITY',
    memberEventData(community, left),
  );
  return { user: left, settled: settled.then((records) => records.map(deliveryView)) };
}

/** The answer of the join route once the first tries are done. */
export async function joinResult(
  context: MockContext,
  joined: { user: UserRecord; settled: Promise<WebhookDeliveryRecord[]> },
): Promise<JoinResult> {
  const deliveries = await joined.settled;
  const user = context.store.users.get(joined.user.id) ?? joined.user;
  return { user: userById(context.store, user), deliveries };
}
