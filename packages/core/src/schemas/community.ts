import * as z from 'zod';
import { count } from './fields.js';

/** Basic information on a community, addressed by its subdomain. */
export const CommunitySchema = z.object({
  name: z.string(),
  subdomain: z.string(),
  id: z.string(),
  image: z.string().nullable(),
  description: z.string().nullable(),
  sector: z.string().nullable(),
  blockchain: z.string().nullable(),
  type: z.string().nullable(),
  totalMembers: count(),
});
/** Basic information on a community, addressed by its subdomain. */
export interface Community extends z.infer<typeof CommunitySchema> {}

/** A module: a group of quests. */
export const ModuleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  color: z.string().nullable(),
  coverUrl: z.string().nullable(),
  position: z.number(),
});
/** A module: a group of quests. */
export interface Module extends z.infer<typeof ModuleSchema> {}

/** The body of the module list response. */
export const ModuleListSchema = z.array(ModuleSchema);
/** The body of the module list response. */
export type ModuleList = Module[];
