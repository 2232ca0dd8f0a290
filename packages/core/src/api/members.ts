import {
  BanBodySchema,
  CommunitySecretInfoSchema,
  CommunitySecretSchema,
  MemberCheckBodySchema,
  ReferralCodeSchema,
  SubdomainParamsSchema,
  UserPathParamsSchema,
  XpBodySchema,
  XpEntrySchema,
} from '../schemas/index.js';
import { CONTRACT_ERRORS } from './community.js';
import { defineOperation } from './operation.js';

// The platform's documented operations on members and the community secret that the contract
// leaves out (platform-docs-notes §2). They declare the statuses of the contract's other
// documented routes.

/** POST /member */
export const checkMember = defineOperation({
  operationId: 'checkMember',
  method: 'post',
  path: '/member',
  summary: 'Member check',
  description:
    'Answers 200 without content when the user is a member of the community, 404 when not (deleted members are no ' +
    'longer members; banned members still are). Available for any community whatever the community of the key.',
  tag: 'Members',
  apiKeyOnly: true,
  access: 'any',
  params: SubdomainParamsSchema,
  body: MemberCheckBodySchema,
  response: null,
  errors: CONTRACT_ERRORS,
});

/** POST /secrets */
export const createSecret = defineOperation({
  operationId: 'createSecret',
  method: 'post',
  path: '/secrets',
  summary: 'Create the community secret',
  description:
    'Creates the secret that signs the identity-connect flow and answers it, this once, with 201. A community has ' +
    'one secret: creating another replaces it (the old one stops signing), so a lost secret can always be replaced. ' +
    'Needs a read-write API key or an admin.',
  tag: 'Members',
  access: 'write',
  params: SubdomainParamsSchema,
  status: 201,
  response: { name: 'CommunitySecret', schema: CommunitySecretSchema },
  errors: CONTRACT_ERRORS,
});

/** GET /secrets */
export const getSecret = defineOperation({
  operationId: 'getSecret',
  method: 'get',
  path: '/secrets',
  summary: 'Read the community secret',
  description:
    'Which secret signs the connect flow: its prefix and creation time, never the secret itself (it is shown once, ' +
    'when created).',
  tag: 'Members',
  access: 'admin',
  params: SubdomainParamsSchema,
  response: { name: 'CommunitySecretInfo', schema: CommunitySecretInfoSchema },
  errors: CONTRACT_ERRORS,
});

/** POST /users/{userId}/xp */
export const addXp = defineOperation({
  operationId: 'addXp',
  method: 'post',
  path: '/users/{userId}/xp',
  summary: 'Give xp to a member',
  description:
    "Adds xp to a member and answers the XP entry. The member's xp, level and rank follow, and the entry counts for " +
    'the all-time leaderboard and the running sprint’s. Refused (403) for a banned member, 404 for a deleted one.',
  tag: 'Members',
  access: 'write',
  params: UserPathParamsSchema,
  body: XpBodySchema,
  response: { name: 'XpEntry', schema: XpEntrySchema },
  errors: CONTRACT_ERRORS,
});

/** DELETE /users/{userId}/xp */
export const removeXp = defineOperation({
  operationId: 'removeXp',
  method: 'delete',
  path: '/users/{userId}/xp',
  summary: 'Remove xp from a member',
  description:
    'Removes xp from a member (a JSON body, as on add) and answers the XP entry, whose xp is negative. A member’s xp ' +
    'never goes below 0: removing more than the member has is a 409 and changes nothing.',
  tag: 'Members',
  access: 'write',
  params: UserPathParamsSchema,
  body: XpBodySchema,
  response: { name: 'XpEntry', schema: XpEntrySchema },
  errors: CONTRACT_ERRORS,
});

/** POST /users/{userId}/ban */
export const banUser = defineOperation({
  operationId: 'banUser',
  method: 'post',
  path: '/users/{userId}/ban',
  summary: 'Ban a member',
  description:
    'Bans a member: role banned, isBanned true, banReason the reason given. The member can no longer claim quests, ' +
    'their pending reviews are cancelled and they leave the leaderboards. There is no unban; banning again is a 409. ' +
    'Answers 200 without content.',
  tag: 'Members',
  access: 'write',
  params: UserPathParamsSchema,
  body: BanBodySchema,
  response: null,
  errors: CONTRACT_ERRORS,
});

/** GET /users/{userId}/referral-code */
export const getReferralCode = defineOperation({
  operationId: 'getReferralCode',
  method: 'get',
  path: '/users/{userId}/referral-code',
  summary: "A member's referral code",
  description: 'The code a member shares to invite others; the same code every time.',
  tag: 'Members',
  access: 'self',
  selfParam: 'userId',
  params: UserPathParamsSchema,
  response: { name: 'ReferralCode', schema: ReferralCodeSchema },
  errors: CONTRACT_ERRORS,
});
