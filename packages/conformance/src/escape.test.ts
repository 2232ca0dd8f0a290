import { describe, expect, it } from 'vitest';
import { escapeJson, escapeText } from './escape.js';

// Every kind of character an endpoint can send to act on a terminal or a page instead of being
// read, each with the escape it must show as.
const ACTING: Array<[string, string, string]> = [
  ['ESC (C0)', '\u001b[2K', '\\u001b[2K'],
  ['BEL (C0)', '\u0007', '\\u0007'],
  ['carriage return', 'a\rPASSED', 'a\\rPASSED'],
  ['DEL', '\u007f', '\\u007f'],
  ['NEL (C1)', '\u0085', '\\u0085'],
  ['CSI (C1)', '\u009b2K', '\\u009b2K'],
  ['OSC (C1)', '\u009d0;title', '\\u009d0;title'],
  ['right-to-left override', '\u202eDESSAP', '\\u202eDESSAP'],
  ['right-to-left isolate', '\u2067x\u2069', '\\u2067x\\u2069'],
  ['arabic letter mark', '\u061c', '\\u061c'],
  ['zero-width space', 'a\u200bb', 'a\\u200bb'],
  ['zero-width joiner', 'a\u200db', 'a\\u200db'],
  ['word joiner', 'a\u2060b', 'a\\u2060b'],
  ['byte-order mark', '\ufeff', '\\ufeff'],
  ['soft hyphen', 'a\u00adb', 'a\\u00adb'],
  ['line separator', 'a\u2028b', 'a\\u2028b'],
  ['tag characters', 'ok\u{e0041}\u{e0042}', 'ok\\u{e0041}\\u{e0042}'],
  ['a lone surrogate', 'a\ud800b', 'a\\ud800b'],
];

describe('escapeText', () => {
  it.each(ACTING)('shows %s as an escape', (_, raw, shown) => {
    expect(escapeText(raw)).toBe(shown);
  });

  it('leaves readable text alone, accents and emoji included', () => {
    expect(escapeText('Déjà vu 😀 — 日本')).toBe('Déjà vu 😀 — 日本');
  });

  it('puts a multi-line text on one line, or keeps its line feeds and tabs when asked', () => {
    expect(escapeText('a\nb\tc')).toBe('a\\nb\\tc');
    expect(escapeText('a\nb\tc\r\u009b', { keepLines: true })).toBe('a\nb\tc\\r\\u009b');
  });
});

describe('escapeJson', () => {
  it('writes every acting character as a JSON escape, and a parser reads the same string back', () => {
    const value = { message: ACTING.map(([, raw]) => raw).join(' '), nested: ['\u{e0041}'] };
    const json = escapeJson(JSON.stringify(value, null, 2));
    expect(JSON.parse(json)).toEqual(value);
    expect(json).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e]/u,
    );
    expect(json).not.toMatch(/[\u{e0000}-\u{e007f}]/u);
    expect(json).toContain('\\u009b2K');
    expect(json).toContain('\\udb40\\udc41');
  });

  it("keeps the layout's line feeds", () => {
    expect(escapeJson(JSON.stringify({ a: 1 }, null, 2))).toBe('{\n  "a": 1\n}');
  });
});
