import { describe, expect, it } from 'vitest';
import { DEMO_TASK_KEY, readConfig } from './config.js';

describe('readConfig', () => {
  it('defaults to the demo key, port 4010 and the loopback interface', () => {
    expect(readConfig({})).toEqual({
      apiKey: [DEMO_TASK_KEY],
      demoKey: true,
      port: 4010,
      host: '127.0.0.1',
      questIds: {},
      platform: null,
      levelNeeded: 5,
    });
  });

  it('reads keys for a rotation, the port, the host and the quest ids', () => {
    const config = readConfig({
      QUEST_API_KEY: 'new-key, old-key',
      PORT: '0',
      HOST: '0.0.0.0',
      DISCORD_QUEST_ID: 'q-discord',
      PASS_QUEST_ID: 'q-pass',
    });
    expect(config).toEqual({
      apiKey: ['new-key', 'old-key'],
      demoKey: false,
      port: 0,
      host: '0.0.0.0',
      questIds: { discord: 'q-discord', pass: 'q-pass' },
      platform: null,
      levelNeeded: 5,
    });
  });

  it('reads the level quest and the platform to read members from', () => {
    const config = readConfig({
      LEVEL_QUEST_ID: 'q-level',
      LEVEL_NEEDED: '12',
      PLATFORM_API_KEY: 'qk_key',
      PLATFORM_URL: 'https://platform.example',
      PLATFORM_SUBDOMAIN: 'acme',
    });
    expect(config).toMatchObject({
      questIds: { level: 'q-level' },
      levelNeeded: 12,
      platform: { baseUrl: 'https://platform.example', subdomain: 'acme', apiKey: 'qk_key' },
    });
    expect(() => readConfig({ LEVEL_QUEST_ID: 'q' })).toThrow(/PLATFORM_API_KEY/);
    expect(() => readConfig({ LEVEL_NEEDED: 'five' })).toThrow(/LEVEL_NEEDED/);
    expect(() => readConfig({ PLATFORM_API_KEY: 'k', PLATFORM_URL: 'x' })).toThrow(/PLATFORM_URL/);
  });

  it.each(['http', '-1', '70000', '3.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });
});
