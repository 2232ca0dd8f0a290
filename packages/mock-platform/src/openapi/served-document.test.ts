// The document at /openapi.json is recorded: generating it elsewhere (core's openapi entry) must
// not change one byte of what the mock serves. A change to the contract updates the recording
// (`vitest -u`), and the diff shows what changed in the document.
import { describe, expect, it } from 'vitest';
import { createTestPlatform } from '../testkit.js';

describe('GET /openapi.json', () => {
  it('serves the recorded document, byte for byte', async () => {
    const { call } = createTestPlatform({ serverUrl: 'http://127.0.0.1:4000' });
    const answer = await call('GET', '/openapi.json', { key: null });
    expect(answer.status).toBe(200);
    // The body is the compact form of the recorded document: same keys, same order, same values.
    expect(answer.text).toBe(JSON.stringify(JSON.parse(answer.text)));
    await expect(`${JSON.stringify(JSON.parse(answer.text), null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/openapi.json.snap',
    );
  });
});
