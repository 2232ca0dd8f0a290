import { describe, expect, it } from 'vitest';
import { DEMO_CONNECT_SECRET, DEMO_TASK_KEY, readConfig } from './config.js';

// Attack of the fifth round: with NODE_ENV=production (or reachable from the network) the example
// started on the mock platform's published connect secret and task key, and accepted a redirect
// signed with the public secret.

const OWN = { QUEST_API_KEY: 'own-task-key-0123', CONNECT_SECRET: 'own-connect-secret-0123' };

describe('readConfig in production or beyond loopback: its own secrets or no start', () => {
  const exposed = [
    { NODE_ENV: 'production' },
    { HOST: '0.0.0.0' },
    { HOST: '::' },
    { HOST: '192.0.2.10' },
  ];
  it.each(exposed)('refuses to start on the public demo values (%o)', (env) => {
    expect(() => readConfig(env)).toThrow(/QUEST_API_KEY and CONNECT_SECRET/);
    expect(() => readConfig({ ...env, CONNECT_SECRET: OWN.CONNECT_SECRET })).toThrow(
      /QUEST_API_KEY/,
    );
    expect(() => readConfig({ ...env, QUEST_API_KEY: OWN.QUEST_API_KEY })).toThrow(
      /CONNECT_SECRET/,
    );
    // Set to the published values by hand: refused too.
    expect(() =>
      readConfig({ ...env, QUEST_API_KEY: DEMO_TASK_KEY, CONNECT_SECRET: DEMO_CONNECT_SECRET }),
    ).toThrow(/public demo/);
    expect(() =>
      readConfig({
        ...env,
        ...OWN,
        CONNECT_SECRET: `${OWN.CONNECT_SECRET},${DEMO_CONNECT_SECRET}`,
      }),
    ).toThrow(/CONNECT_SECRET/);
  });

  it.each(exposed)('starts with its own secrets (%o)', (env) => {
    const config = readConfig({ ...env, ...OWN, PLATFORM_ORIGINS: 'https://p.example' });
    expect(config.connectSecret).toEqual([OWN.CONNECT_SECRET]);
    expect(config.demoDefaults).toEqual([]);
  });

  it('keeps the demo values on loopback in development', () => {
    expect(readConfig({ HOST: '127.0.0.1' }).connectSecret).toEqual([DEMO_CONNECT_SECRET]);
    expect(readConfig({ HOST: 'localhost' }).apiKey).toEqual([DEMO_TASK_KEY]);
  });
});

describe('TRUST_PROXY', () => {
  it('is the number of proxies in front, 0 when unset', () => {
    expect(readConfig({}).trustedProxies).toBe(0);
    expect(readConfig({ TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(() => readConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => readConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });
});
