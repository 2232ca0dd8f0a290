import * as z from 'zod';

/** Where a bad value of a request was found. */
export const ISSUE_LOCATIONS = ['path', 'query', 'header', 'body'] as const;

/** One problem of a request that failed validation. */
export const ValidationIssueSchema = z.object({
  in: z.enum(ISSUE_LOCATIONS),
  path: z.string().describe('The parameter or field, dotted for nested fields (tasks.0.type).'),
  message: z.string(),
});
/** One problem of a request that failed validation. */
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

/**
 * The body of every error answer: a message, plus the issues of a validation error. The contract
 * does not show the error body; this is the shape questkit's mock answers.
 */
export const ErrorBodySchema = z.object({
  message: z.string().min(1),
  issues: z.array(ValidationIssueSchema).optional(),
});
/** The body of every error answer. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
