import * as z from 'zod';
import { QuestCreateRequestSchema, QuestCreateResponseSchema } from '../schemas/index.js';
import { CONTRACT_ERRORS } from './community.js';
import { defineOperation } from './operation.js';

const create = QuestCreateRequestSchema.shape;

/** Longest `aiPrompt` of a quest, in characters (the documentation gives none). */
export const QUEST_AI_PROMPT_MAX_LENGTH = 5_000;

/** Path parameters of `/quests/{questId}`. */
export const QuestPathParamsSchema = z.object({
  subdomain: z.string().min(1).describe('The subdomain that addresses the community.'),
  questId: z.uuid().overwrite((value) => value.toLowerCase()),
});

/**
 * Body of the quest update: every field of the creation body is optional, without its default,
 * plus the state fields. `tasks` and `rewards` are not among them (questkit's choice, the
 * documentation is silent): members claimed the quest under its tasks and rewards, so changing
 * them would make past claims disagree with the quest; create a new quest instead. The mock
 * refuses them as unknown fields.
 */
export const QuestUpdateBodySchema = z.object({
  categoryId: create.categoryId.optional(),
  name: create.name.optional(),
  published: create.published.optional(),
  recurrence: create.recurrence.optional(),
  conditionOperator: create.conditionOperator.optional(),
  retryAfter: create.retryAfter.unwrap().optional(),
  description: create.description,
  conditions: create.conditions,
  position: create.position,
  claimLimit: create.claimLimit.unwrap().optional(),
  sprintId: create.sprintId
    .unwrap()
    .nullable()
    .optional()
    .describe('null takes the quest out of its sprint.'),
  archived: z.boolean().optional(),
  isAutomaticWhenEmpty: z.boolean().optional(),
  aiReview: z.boolean().optional().describe('Whether claims are reviewed by AI first.'),
  aiPrompt: z.string().max(QUEST_AI_PROMPT_MAX_LENGTH).nullable().optional(),
});
/** Body of the quest update. */
export type QuestUpdateBody = z.infer<typeof QuestUpdateBodySchema>;
/** Body of the quest update as a client writes it. */
export interface QuestUpdateBodyInput extends z.input<typeof QuestUpdateBodySchema> {}

/** PATCH /quests/{questId} */
export const updateQuest = defineOperation({
  operationId: 'updateQuest',
  method: 'patch',
  path: '/quests/{questId}',
  summary: 'Update a quest',
  description:
    'Changes the fields given and answers the quest as creation does. Every creation field is optional, plus archived, ' +
    'isAutomaticWhenEmpty, aiReview and aiPrompt; tasks and rewards cannot be changed (past claims were made under ' +
    'them: create a new quest). categoryId must be a module and sprintId a sprint of the community. ' +
    'Needs a read-write API key.',
  tag: 'Quests',
  apiKeyOnly: true,
  access: 'write',
  params: QuestPathParamsSchema,
  body: QuestUpdateBodySchema,
  response: { name: 'QuestCreateResponse', schema: QuestCreateResponseSchema },
  errors: CONTRACT_ERRORS,
});
