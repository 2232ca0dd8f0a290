// Text from an endpoint reaches a terminal, a CI log and a CI test page. These are the characters
// that can act there instead of being read: C0 and C1 controls (cursor moves, colours, a new
// title, a line that overwrites the verdict), bidi marks, embeddings, overrides and isolates
// (text shown in another order than it is), invisible ones (zero-width, soft hyphen, word
// joiners, the byte-order mark, interlinear annotations, Unicode tag characters that hide a
// message inside a line) and lone surrogates (not text at all). Each is shown as an escape.

// Everything but the C0 controls, which each output treats its own way.
const ACTING =
  '\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}\\ud800-\\udfff';
const UNSAFE = new RegExp(`[\\u0000-\\u001f${ACTING}]`, 'gu');
// A multi-line detail keeps its line feeds and tabs.
const UNSAFE_IN_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${ACTING}]`, 'gu');
// In JSON text a C0 control can only be the layout's line feed: JSON.stringify escapes the rest.
const UNSAFE_IN_JSON = new RegExp(`[${ACTING}]`, 'gu');

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');

function escapeOne(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${hex(code, 5)}}` : `\\u${hex(code, 4)}`;
}

/**
 * `text` with every character that could act on a terminal or a page instead of being read
 * (controls, bidi, invisible and tag characters, lone surrogates) written as an escape
 * (`\u009b`, `\u{e0041}`, `\n`), so it shows on one line, in order, all of it visible.
 *
 * @example
 * escapeText('ok\u009b2K\u202e'); // 'ok\\u009b2K\\u202e'
 */
export function escapeText(text: string, options: { keepLines?: boolean } = {}): string {
  return text.replace(options.keepLines ? UNSAFE_IN_LINES : UNSAFE, escapeOne);
}

/**
 * JSON text with the same characters written as JSON escapes (`\u0085`, a tag character as its
 * surrogate pair): a parser reads back exactly the same strings, and the raw text shows nothing
 * that acts on a terminal. JSON.stringify already escapes C0 controls; this does the rest.
 */
export function escapeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${hex(c.charCodeAt(i), 4)}`).join(''),
  );
}
