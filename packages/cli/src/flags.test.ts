import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { type FlagSpec, formatFlags, parseFlags } from './flags.js';

const FLAGS: FlagSpec[] = [
  {
    name: 'api-key',
    type: 'string',
    env: 'T_API_KEY',
    placeholder: '<key>',
    description: 'The key',
  },
  {
    name: 'timeout',
    type: 'integer',
    env: 'T_TIMEOUT',
    defaultText: '10000',
    description: 'Limit',
  },
  { name: 'json', type: 'boolean', env: 'T_JSON', description: 'JSON' },
];

describe('parseFlags', () => {
  it('prefers a flag over its environment twin, and reads the twin when the flag is absent', () => {
    const env = { T_API_KEY: 'from-env', T_TIMEOUT: '300' };
    expect(parseFlags(FLAGS, ['--api-key', 'from-flag', 'http://x'], env)).toEqual({
      values: { 'api-key': 'from-flag', timeout: 300 },
      positionals: ['http://x'],
    });
  });

  it.each([
    ['1', true],
    ['true', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['off', false],
  ])('reads boolean twin %s as %s', (text, value) => {
    expect(parseFlags(FLAGS, [], { T_JSON: text }).values.json).toBe(value);
  });

  it('ignores an empty twin', () => {
    expect(parseFlags(FLAGS, [], { T_API_KEY: '' }).values).toEqual({});
  });

  it.each([
    [['--timeout', '0'], /--timeout must be a positive integer, got "0"/],
    [['--timeout', '1.5'], /--timeout must be a positive integer/],
    [['--nope'], /Unknown option '--nope'/],
    [['--api-key'], /argument missing/],
    [['--api-key', 'a', '--api-key', 'b'], /--api-key is given more than once/],
    // `--api-key "$QUEST_API_KEY"` in a shell where the variable is not set.
    [
      ['--api-key', ''],
      /--api-key needs a value: it is empty, as a shell variable that is not set \(such as "\$T_API_KEY"\) expands to nothing; set it, or leave the flag out and questkit reads T_API_KEY itself/,
    ],
  ])('throws a UsageError for %j', (argv, message) => {
    expect(() => parseFlags(FLAGS, argv, {})).toThrow(UsageError);
    expect(() => parseFlags(FLAGS, argv, {})).toThrow(message);
  });

  it('names the twin when the twin is wrong', () => {
    expect(() => parseFlags(FLAGS, [], { T_TIMEOUT: 'soon' })).toThrow(
      /T_TIMEOUT must be a positive integer/,
    );
  });
});

describe('formatFlags', () => {
  it('shows each flag with its placeholder, default and twin', () => {
    const lines = formatFlags(FLAGS).split('\n');
    expect(lines[0]).toMatch(/^ {6}--api-key <key>\s+The key \(env T_API_KEY\)$/);
    expect(lines[1]).toMatch(/^ {6}--timeout <n>\s+Limit \(default 10000; env T_TIMEOUT\)$/);
    expect(lines[2]).toMatch(/^ {6}--json\s+JSON \(env T_JSON\)$/);
  });
});
