import { describe, expect, it } from 'vitest';
import { MOCK_FLAGS, mockUsage, parseMockArgs } from './args.js';

describe('parseMockArgs', () => {
  it('has defaults', () => {
    expect(parseMockArgs([], {})).toEqual({
      kind: 'run',
      config: {
        port: 4000,
        host: '127.0.0.1',
        apiKey: undefined,
        apiKeySource: undefined,
        seedUsers: 100,
        fixtures: undefined,
        save: undefined,
        rateLimit: 50,
      },
    });
  });

  it('reads every flag, as --flag value and --flag=value', () => {
    const args = parseMockArgs(
      [
        '--port',
        '4100',
        '--host=0.0.0.0',
        '--api-key',
        'k1',
        '--seed=5',
        '--fixtures',
        'in.json',
        '--save',
        'out.json',
        '--rate-limit',
        '0',
      ],
      {},
    );
    expect(args).toEqual({
      kind: 'run',
      config: {
        port: 4100,
        host: '0.0.0.0',
        apiKey: 'k1',
        apiKeySource: 'flag',
        seedUsers: 5,
        fixtures: 'in.json',
        save: 'out.json',
        rateLimit: 0,
      },
    });
  });

  it('reads every environment twin; a flag beats its twin', () => {
    const env = {
      QUESTKIT_MOCK_PORT: '4200',
      QUESTKIT_MOCK_HOST: '::1',
      QUESTKIT_MOCK_API_KEY: 'k2',
      QUESTKIT_MOCK_SEED: '7',
      QUESTKIT_MOCK_FIXTURES: 'a.json',
      QUESTKIT_MOCK_SAVE: 'b.json',
      QUESTKIT_MOCK_RATE_LIMIT: '9',
      QUESTKIT_MOCK_PUBLIC_URL: 'https://mock.example',
    };
    expect(Object.keys(env).sort()).toEqual(MOCK_FLAGS.map((f) => f.env).sort());
    expect(parseMockArgs([], env)).toMatchObject({
      config: {
        port: 4200,
        host: '::1',
        apiKey: 'k2',
        apiKeySource: 'env',
        seedUsers: 7,
        fixtures: 'a.json',
        save: 'b.json',
        rateLimit: 9,
        publicUrl: 'https://mock.example',
      },
    });
    expect(parseMockArgs(['--port', '1', '--api-key', 'k3'], env)).toMatchObject({
      config: { port: 1, apiKey: 'k3', apiKeySource: 'flag', seedUsers: 7 },
    });
  });

  it.each([
    [['--nope'], 'Unknown argument'],
    [['--port'], 'needs a value'],
    [['--port', 'x'], 'integer'],
    [['--port', '70000'], 'between'],
    [['--seed', '-1'], 'integer'],
    [['--api-key='], 'needs a value'],
  ])('refuses %j', (argv, message) => {
    const args = parseMockArgs(argv, {});
    expect(args.kind).toBe('error');
    expect(args.kind === 'error' && args.message).toContain(message);
  });

  it('answers --help with a usage listing every flag and its twin', () => {
    expect(parseMockArgs(['--seed', '1', '--help'], {})).toEqual({ kind: 'help' });
    const usage = mockUsage();
    for (const flag of MOCK_FLAGS) {
      expect(usage).toContain(flag.flag);
      expect(usage).toContain(flag.env);
    }
  });
});
