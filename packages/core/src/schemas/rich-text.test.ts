import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { issuePaths } from './field-cases.testkit.js';
import { RichTextMarkSchema, RichTextNodeSchema } from './rich-text.js';

/** A chain of `depth` nodes, each the only child of the one above, ending in a text node. */
function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let node = leaf;
  for (let level = 1; level < depth; level += 1) {
    node = { type: level === depth - 1 ? 'doc' : 'blockquote', content: [node] };
  }
  return node;
}

const linkText = {
  type: 'text',
  text: 'the docs',
  marks: [
    { type: 'bold' },
    {
      type: 'link',
      attrs: { href: 'https://example.com', target: '_blank', class: null, rel: 'noopener' },
    },
  ],
};

describe('RichTextNode', () => {
  it('accepts a document nested 5 levels deep and keeps every level', () => {
    const doc = nested(5, linkText);
    const parsed = RichTextNodeSchema.parse(doc);
    expect(parsed).toEqual(doc);
    expect(parsed.content?.[0]?.content?.[0]?.content?.[0]?.content?.[0]?.text).toBe('the docs');
  });

  it('names the path of a bad node 5 levels down', () => {
    const doc = nested(5, { type: 'text', text: 7 });
    expect(issuePaths(RichTextNodeSchema, doc)).toEqual([
      'content.0.content.0.content.0.content.0.text',
    ]);
  });

  it('accepts an empty node, null content and extra keys at every level', () => {
    expect(issuePaths(RichTextNodeSchema, {})).toEqual([]);
    expect(issuePaths(RichTextNodeSchema, { type: 'paragraph', content: null })).toEqual([]);
    const extra = { type: 'heading', attrs: { level: 2, textAlign: null }, id: 'h', content: [] };
    expect(RichTextNodeSchema.parse(extra)).toEqual(extra);
  });

  it.each([
    ['type', 1],
    ['text', ['a']],
    ['attrs', 'bold'],
    ['marks', {}],
    ['content', 'text'],
    ['content', [1]],
  ])('rejects %s = %j', (key, value) => {
    expect(issuePaths(RichTextNodeSchema, { [key]: value })[0]?.startsWith(key)).toBe(true);
  });

  it('rejects a node that is not an object', () => {
    expect(RichTextNodeSchema.safeParse('hello').success).toBe(false);
    expect(RichTextNodeSchema.safeParse(null).success).toBe(false);
  });

  it('serializes to JSON Schema with the recursion as a $ref', () => {
    expect(z.toJSONSchema(RichTextNodeSchema)).toMatchObject({
      properties: {
        content: { anyOf: [{ type: 'array', items: { $ref: '#' } }, { type: 'null' }] },
      },
    });
  });
});

describe('RichTextMark', () => {
  it('accepts link attrs and keeps unknown keys', () => {
    const mark = { type: 'link', attrs: { href: '/x', target: null, class: 'c', rel: 'r' }, x: 1 };
    expect(RichTextMarkSchema.parse(mark)).toEqual(mark);
  });

  it.each([
    ['href', 1],
    ['target', false],
    ['class', ['a']],
  ])('rejects attrs.%s = %j', (key, value) => {
    expect(issuePaths(RichTextMarkSchema, { type: 'link', attrs: { [key]: value } })).toEqual([
      `attrs.${key}`,
    ]);
  });
});
