import { assertConformant } from '@questkit/conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';

import { type RunningServer, startServer } from './server.js';

// The platform's checks and questkit's verdicts, as a community's CI would run them.
const API_KEY = 'example-conformance-key';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ apiKey: API_KEY, connectSecret: 'conformance-secret', port: 0 });
});
afterAll(() => server.close());

describe('the example passes the conformance battery', () => {
  it('over real HTTP, for one of its quests', async () => {
    await assertConformant(server.verifyUrl, {
      apiKey: API_KEY,
      // One handler for every quest: any quest id reaches it.
      timeoutMs: 5_000,
      burst: 4,
      samples: 4,
    });
  });
});
