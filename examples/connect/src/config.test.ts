import { describe, expect, it } from 'vitest';
import { DEMO_CONNECT_SECRET, DEMO_TASK_KEY, MOCK_PLATFORM_ORIGINS, readConfig } from './config.js';

describe('readConfig', () => {
  it("defaults to the mock platform's demo values, port 4010 and the loopback interface", () => {
    expect(readConfig({})).toEqual({
      apiKey: [DEMO_TASK_KEY],
      connectSecret: [DEMO_CONNECT_SECRET],
      demoDefaults: ['QUEST_API_KEY', 'CONNECT_SECRET'],
      port: 4010,
      host: '127.0.0.1',
      publicUrl: undefined,
      // In development, links may only return to the mock platform on this machine.
      allowedCallbackOrigins: MOCK_PLATFORM_ORIGINS,
      redisUrl: undefined,
      trustedProxies: 0,
      warnings: [],
    });
  });

  it('warns when PLATFORM_ORIGINS is unset in production', () => {
    const secrets = { QUEST_API_KEY: 'own-key-0123', CONNECT_SECRET: 'own-secret-0123' };
    const config = readConfig({ NODE_ENV: 'production', ...secrets });
    expect(config.allowedCallbackOrigins).toBeUndefined();
    expect(config.warnings).toEqual([expect.stringContaining('PLATFORM_ORIGINS is not set')]);
    expect(
      readConfig({ NODE_ENV: 'production', PLATFORM_ORIGINS: 'https://p.example', ...secrets })
        .warnings,
    ).toEqual([]);
  });

  it('reads rotations, the public URL and the platform origins', () => {
    expect(
      readConfig({
        QUEST_API_KEY: 'k1,k2',
        CONNECT_SECRET: 'new-secret, old-secret',
        PORT: '8080',
        PUBLIC_URL: 'https://community.example',
        PLATFORM_ORIGINS: 'https://platform.example',
      }),
    ).toEqual({
      apiKey: ['k1', 'k2'],
      connectSecret: ['new-secret', 'old-secret'],
      demoDefaults: [],
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'https://community.example',
      allowedCallbackOrigins: ['https://platform.example'],
      redisUrl: undefined,
      trustedProxies: 0,
      warnings: [],
    });
  });

  it('refuses a bad PORT', () => {
    expect(() => readConfig({ PORT: '99999' })).toThrow(/PORT/);
  });
});
