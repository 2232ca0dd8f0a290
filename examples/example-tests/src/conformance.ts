import { assertConformant } from '@questkit/conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';

// The platform's checks and questkit's verdicts, as a community's CI would run them.
const API_KEY = 'example-conformance-key';

/** The example's server, as its `startServer` starts it. */
interface Server {
  verifyUrl: string;
  close(): Promise<void> | void;
}

/**
 * Starts the example on a free loopback port and runs the conformance battery against it, over
 * real HTTP, for one of its quests.
 */
export function describeConformance(
  startServer: (options: { apiKey: string; port: number }) => Promise<Server>,
  questId: string,
): void {
  let server: Server;
  beforeAll(async () => {
    server = await startServer({ apiKey: API_KEY, port: 0 });
  });
  afterAll(() => server.close());

  describe('the example passes the conformance battery', () => {
    it('over real HTTP, for one of its quests', async () => {
      await assertConformant(server.verifyUrl, {
        apiKey: API_KEY,
        member: { questId },
        timeoutMs: 5_000,
        burst: 4,
        samples: 4,
      });
    });
  });
}
