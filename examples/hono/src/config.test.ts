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
    });
  });

  it.each(['http', '-1', '70000', '3.5'])('refuses PORT=%s', (port) => {
    expect(() => readConfig({ PORT: port })).toThrow(/PORT/);
  });
});
