import { assertConformant } from '@questkit/conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { DEFAULT_QUEST_IDS } from './quests.js';
import { type RunningServer, startServer } from './server.js';

// The platform's checks and questkit's verdicts, as a community's CI would run them.
const API_KEY = 'example-conformance-key';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ apiKey: API_KEY, port: 0 });
});
afterAll(() => server.close());

describe('the example passes the conformance battery', () => {
  it('over real HTTP, for one of its quests', async () => {
    await assertConformant(server.verifyUrl, {
      apiKey: API_KEY,
      member: { questId: Object.values(DEFAULT_QUEST_IDS)[0] },
      timeoutMs: 5_000,
      burst: 4,
      samples: 4,
    });
  });
});
