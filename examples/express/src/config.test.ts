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
    });
  });

  it('reads keys for a rotation, the port, the host and the quest ids', () => {
    const config = readConfig({
      QUEST_API_KEY: 'new-key, old-key',
      PORT: '0',
      HOST: '0.0.0.0',
      NEWSLETTER_QUEST_ID: 'q-news',
      PURCHASE_QUEST_ID: 'q-buy',
    });
    expect(config).toEqual({
      apiKey: ['new-key', 'old-key'],
      demoKey: false,
      port: 0,
      host: '0.0.0.0',
      questIds: { newsletter: 'q-news', purchase: 'q-buy' },
      platform: null,
    });
  });

  it('reads the invites quest and the platform to read invites from', () => {
    const config = readConfig({
      INVITES_QUEST_ID: 'q-invites',
      PLATFORM_API_KEY: 'qk_key',
      PLATFORM_URL: 'https://platform.example',
      PLATFORM_SUBDOMAIN: 'acme',
    });
    expect(config.questIds).toEqual({ invites: 'q-invites' });
    expect(config.platform).toEqual({
      baseUrl: 'https://platform.example',
      subdomain: 'acme',
      apiKey: 'qk_key',
    });
    expect(readConfig({ PLATFORM_API_KEY: 'k' }).platform).toMatchObject({
      baseUrl: 'http://127.0.0.1:4000',
      subdomain: 'demo',
    });
    expect(() => readConfig({ INVITES_QUEST_ID: 'q' })).toThrow(/PLATFORM_API_KEY/);
    expect(() => readConfig({ PLATFORM_API_KEY: 'k', PLATFORM_URL: 'ftp://x' })).toThrow(
      /PLATFORM_URL/,
    );
  });

  it.each(['http', '-1', '70000', '3.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });
});
