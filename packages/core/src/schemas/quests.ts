import * as z from 'zod';
import { count, dateTime, httpUrl, requestUuid } from './fields.js';
import {
  QUEST_CLAIM_LIMIT_DEFAULT,
  QUEST_CLAIM_LIMIT_MAX,
  QUEST_CLAIM_LIMIT_MIN,
  QUEST_NAME_MAX_LENGTH,
  QUEST_POSITION_MAX,
  QUEST_POSITION_MIN,
  QUEST_TASKS_MAX,
} from './limits.js';
import { RichTextNodeSchema } from './rich-text.js';

// The contract lists only the values it has seen for these enumerations, so any string passes and
// the seen values are documented: a closed enum would reject the platform's next value.
const recurrence = () =>
  z.string().describe('How often the quest can be claimed. Value seen: daily.');
const conditionOperator = () => z.string().describe('How the conditions combine. Value seen: AND.');
const claimLimit = () =>
  z
    .number()
    .int()
    .min(QUEST_CLAIM_LIMIT_MIN)
    .max(QUEST_CLAIM_LIMIT_MAX)
    .describe('Most claims of the quest; 0 means no limit.');

/** A condition a member must meet before claiming a quest. */
export const QuestConditionSchema = z.object({
  type: z.string().describe('Values seen: level, quest.'),
  operator: z.string().describe('Values seen: =, isCompleted.'),
  value: z.string().describe('e.g. a level, or the uuid of a quest that must be completed.'),
});
/** A condition a member must meet before claiming a quest. */
export interface QuestCondition extends z.infer<typeof QuestConditionSchema> {}

/**
 * The settings of a quest task. An API task sets `endpoint`, `apiKey` and `identifications`
 * (`network` for the wallet method, `redirectUrl` for the connect method); other task types carry
 * other settings, so unknown keys are kept and none is required.
 */
export const TaskSettingsSchema = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  endpoint: httpUrl().optional().describe('The verification endpoint an API task calls.'),
  apiKey: z.string().optional().describe('Sent to the endpoint in the X-Api-Key header.'),
  identifications: z
    .array(z.string())
    .optional()
    .describe('Identification methods: email, wallet, discord, twitter, svc-connect.'),
  network: z.string().optional().describe('Network of the wallet method. Value seen: eth-mainnet.'),
  redirectUrl: z.string().optional().describe('Where the connect method sends the member.'),
});
/**
 * The settings of a quest task. An API task sets `endpoint`, `apiKey` and `identifications`
 * (`network` for the wallet method, `redirectUrl` for the connect method); other task types carry
 * other settings, so unknown keys are kept and none is required.
 */
export interface TaskSettings extends z.infer<typeof TaskSettingsSchema> {}

/** A task of a quest in the quest list. */
export const QuestListTaskSchema = z.object({
  id: z.string(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  type: z.string().describe('Value seen: api.'),
  settings: TaskSettingsSchema,
});
/** A task of a quest in the quest list. */
export interface QuestListTask extends z.infer<typeof QuestListTaskSchema> {}

/** A reward of a quest in the quest list. */
export const QuestListRewardSchema = z.object({
  type: z.string().describe('Value seen: xp.'),
  operator: z.string().optional().describe('Value seen: =.'),
  value: z.string(),
  chain: z.string().nullable().optional().describe('Value seen: polygon.'),
  collection: z.string().nullable().optional(),
  contractAddress: z.string().nullable().optional(),
});
/** A reward of a quest in the quest list. */
export interface QuestListReward extends z.infer<typeof QuestListRewardSchema> {}

/**
 * An element of the quest list. The contract does not say which fields are required; every field
 * it lists is required here, and none is nullable because the contract marks none so (unlike the
 * create response): a quest created without a description lists an empty document, without
 * `retryAfter` lists 0, and a community without an image lists `communityImageUrl: ''`.
 */
export const QuestListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: RichTextNodeSchema,
  deleted: z.boolean(),
  communityId: z.string(),
  categoryId: z.string(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  archived: z.boolean(),
  autoValidate: z.boolean(),
  conditionOperator: conditionOperator(),
  conditions: z.array(QuestConditionSchema),
  published: z.boolean(),
  recurrence: recurrence(),
  retryAfter: z.number(),
  rewards: z.array(QuestListRewardSchema),
  tasks: z.array(QuestListTaskSchema),
  claimLimit: claimLimit(),
  claimCounter: count().describe(
    'Number of claims; cached, refreshed at most every hour, not real-time.',
  ),
  communityImageUrl: z.string(),
  communityName: z.string(),
  subdomain: z.string(),
});
/**
 * An element of the quest list. The contract does not say which fields are required; every field
 * it lists is required here, and none is nullable because the contract marks none so (unlike the
 * create response): a quest created without a description lists an empty document, without
 * `retryAfter` lists 0, and a community without an image lists `communityImageUrl: ''`.
 */
export interface QuestListItem extends z.infer<typeof QuestListItemSchema> {}

/** The body of the quest list response. */
export const QuestListSchema = z.array(QuestListItemSchema);
/** The body of the quest list response. */
export type QuestList = QuestListItem[];

/** A task of a quest to create. */
export const QuestCreateTaskSchema = z.object({
  type: z.string().describe('Values seen: api, partnership.'),
  settings: TaskSettingsSchema,
});
/** A task of a quest to create. */
export interface QuestCreateTask extends z.infer<typeof QuestCreateTaskSchema> {}

/** A reward with a fixed value, e.g. `{ type: 'xp', value: 100 }`. */
export const QuestValueRewardSchema = z.object({
  type: z.string().describe('Value seen: xp.'),
  value: z.number(),
});
/** A reward with a fixed value, e.g. `{ type: 'xp', value: 100 }`. */
export interface QuestValueReward extends z.infer<typeof QuestValueRewardSchema> {}

/** A reward handed out by a method, e.g. first come, first served. */
export const QuestMethodRewardSchema = z.object({
  method: z.object({
    id: z.uuid(),
    type: z.string().describe('Value seen: fcfs.'),
    max: z.number(),
    count: z.number(),
  }),
});
/** A reward handed out by a method, e.g. first come, first served. */
export interface QuestMethodReward extends z.infer<typeof QuestMethodRewardSchema> {}

/** A reward of a quest to create (and of the create response). */
export const QuestRewardSchema = z.union([QuestValueRewardSchema, QuestMethodRewardSchema]);
/** A reward of a quest to create (and of the create response). */
export type QuestReward = QuestValueReward | QuestMethodReward;

/** The body of quest creation. Defaults of the contract are applied on parse. */
export const QuestCreateRequestSchema = z.object({
  categoryId: requestUuid(),
  name: z.string().max(QUEST_NAME_MAX_LENGTH),
  published: z.boolean(),
  recurrence: recurrence(),
  conditionOperator: conditionOperator(),
  retryAfter: z
    .number()
    .min(0)
    .nullable()
    .default(0)
    .describe('Delay before a new try; one of a fixed enumeration the contract does not show.'),
  description: RichTextNodeSchema.optional(),
  conditions: z.array(QuestConditionSchema).optional(),
  position: z.number().int().min(QUEST_POSITION_MIN).max(QUEST_POSITION_MAX).optional(),
  claimLimit: claimLimit().default(QUEST_CLAIM_LIMIT_DEFAULT),
  sprintId: requestUuid().optional(),
  tasks: z.array(QuestCreateTaskSchema).max(QUEST_TASKS_MAX).optional(),
  rewards: z.array(QuestRewardSchema).optional(),
  isAutomaticWhenEmpty: z.boolean().default(true),
});
/** A parsed quest creation body, defaults applied. */
export type QuestCreateRequest = z.infer<typeof QuestCreateRequestSchema>;
/** A quest creation body as a client writes it, defaulted fields optional. */
export interface QuestCreateRequestInput extends z.input<typeof QuestCreateRequestSchema> {}

/** A task in the quest create response. */
export const QuestCreateResponseTaskSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  settings: TaskSettingsSchema,
});
/** A task in the quest create response. */
export interface QuestCreateResponseTask extends z.infer<typeof QuestCreateResponseTaskSchema> {}

/** The body of the quest create response. */
export const QuestCreateResponseSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  recurrence: recurrence(),
  description: RichTextNodeSchema.nullable(),
  retryAfter: z.number().nullable(),
  archived: z.boolean(),
  published: z.boolean(),
  communityId: z.uuid(),
  categoryId: z.uuid(),
  conditionOperator: conditionOperator(),
  claimLimit: claimLimit(),
  isAutomaticWhenEmpty: z.boolean().optional(),
  conditions: z.array(QuestConditionSchema).optional(),
  rewards: z.array(QuestRewardSchema).optional(),
  tasks: z.array(QuestCreateResponseTaskSchema).optional(),
});
/** The body of the quest create response. */
export interface QuestCreateResponse extends z.infer<typeof QuestCreateResponseSchema> {}
