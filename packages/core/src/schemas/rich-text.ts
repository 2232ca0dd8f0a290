import * as z from 'zod';

/**
 * The attributes of a rich-text mark, e.g. a link's `href`. Values may be null (editors write
 * `target: null` for a link that opens in place); unknown attributes are kept.
 */
export const RichTextMarkAttrsSchema = z.looseObject({
  href: z.string().nullable().optional(),
  target: z.string().nullable().optional(),
  class: z.string().nullable().optional(),
});
/**
 * The attributes of a rich-text mark, e.g. a link's `href`. Values may be null (editors write
 * `target: null` for a link that opens in place); unknown attributes are kept.
 */
export type RichTextMarkAttrs = z.infer<typeof RichTextMarkAttrsSchema>;

/** A mark on a text node (bold, link, ...). Unknown keys are kept. */
export const RichTextMarkSchema = z
  .looseObject({
    type: z.string().optional(),
    attrs: RichTextMarkAttrsSchema.optional(),
  })
  .meta({ description: 'A mark on a text node, such as bold or link.' });
/** A mark on a text node (bold, link, ...). Unknown keys are kept. */
export type RichTextMark = z.infer<typeof RichTextMarkSchema>;

/**
 * One node of a rich-text document (the quest `description`), nested through `content`. The
 * contract names the keys but marks none required, and nodes carry editor-specific extras.
 */
export interface RichTextNode {
  type?: string;
  text?: string;
  attrs?: Record<string, unknown>;
  marks?: RichTextMark[];
  content?: RichTextNode[] | null;
  [key: string]: unknown;
}

/**
 * The schema of a {@link RichTextNode}: every key optional, unknown keys kept. In JSON Schema the
 * recursion becomes a `$ref`. Typed through the interface so declaration files keep the
 * recursive type instead of eliding it to `any`.
 */
export const RichTextNodeSchema: z.ZodType<RichTextNode> = z
  .looseObject({
    type: z.string().optional(),
    text: z.string().optional(),
    attrs: z.looseObject({}).optional(),
    marks: z.array(RichTextMarkSchema).optional(),
    get content() {
      return z.array(RichTextNodeSchema).nullable().optional();
    },
  })
  .meta({ description: 'A rich-text node; children nest through `content`.' });
