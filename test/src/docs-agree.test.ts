import { readdir, readFile } from 'node:fs/promises';
import {
  API_OPERATIONS,
  API_PREFIX,
  OPERATION_IDS,
  VERIFICATION_STATUSES,
} from '@questkit/core/api';
import * as connect from '@questkit/example-connect';
import * as express from '@questkit/example-express';
import {
  DEFAULT_GENERATED_USERS,
  DEFAULT_RATE_LIMIT_PER_SECOND,
  DEMO,
} from '@questkit/mock-platform';
import { describe, expect, it } from 'vitest';
import { MOCK_FLAGS } from '../../packages/cli/src/commands/mock/flags.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
} from '../../packages/core/src/verifier/options.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from '../../packages/core/src/webhooks/options.js';

// The numbers, statuses, defaults and ports the READMEs state about the code, read from the code:
// the next drift fails here instead of reaching a newcomer.

const root = new URL('../../', import.meta.url);
const readme = (path: string) => readFile(new URL(path, root), 'utf8');

/** The rows of the first markdown table after `heading`, as arrays of cells. */
function table(text: string, heading: string): string[][] {
  const start = text.indexOf(heading);
  expect(start, `"${heading}" in the README`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** `^4.22.3 || ^5.3.0` in words: `4.22.3 or a later 4, 5.3.0 or a later 5`. */
function rangeInWords(range: string): string {
  return range
    .split('||')
    .map((part) => {
      const floor = /^\^(\d+)\.\d+\.\d+$/.exec(part.trim());
      expect(floor, `a caret range: "${part.trim()}" of "${range}"`).not.toBeNull();
      return `${part.trim().slice(1)} or a later ${floor?.[1]}`;
    })
    .join(', ');
}

describe('the READMEs agree with the code', () => {
  it("adapters: each framework's floor, stated once, is its peer range", async () => {
    for (const adapter of ['express', 'fastify', 'hono']) {
      const text = await readme(`packages/${adapter}/README.md`);
      const manifest = JSON.parse(await readme(`packages/${adapter}/package.json`)) as {
        peerDependencies: Record<string, string>;
      };
      expect(Object.keys(manifest.peerDependencies)).toContain(adapter);
      for (const [name, range] of Object.entries(manifest.peerDependencies)) {
        const stated = `\`${name}\` \`${range}\` (${rangeInWords(range)})`;
        expect(text.replaceAll('\n', ' ')).toContain(stated);
        // Once: no other version of the framework in words beside it.
        expect(text.split(`\`${name}\` `).length - 1, `${name} in ${adapter}'s README`).toBe(1);
      }
    }
  });

  it("core: the operation count and the verifier's and receiver's defaults", async () => {
    const text = await readme('packages/core/README.md');
    expect(text).toContain(`the ${OPERATION_IDS.length} operationIds, in document order`);
    expect(text).toContain(
      `(\`${OPERATION_IDS[0]}\` ... \`${OPERATION_IDS[OPERATION_IDS.length - 1]}\`)`,
    );
    const options = table(text, '## Verifier options');
    const cell = (name: string) => options.find((row) => row[0] === `\`${name}\``)?.[2];
    expect(cell('timeoutMs')).toBe(`\`${DEFAULT_TIMEOUT_MS}\``);
    expect(cell('maxBodyBytes')).toBe(`\`${DEFAULT_MAX_BODY_BYTES}\``);
    expect(text).toContain(`\`timeoutMs\` (default ${DEFAULT_WEBHOOK_TIMEOUT_MS},`);
    // The verification answers are 200 and 400 only, as the README says.
    expect([...VERIFICATION_STATUSES]).toEqual([200, 400]);
    expect(text).toContain(
      "Only the platform's statuses are used: never 401, 405, 413, 415 or 500",
    );
  });

  it('client: one row per operation, with its HTTP method and path', async () => {
    const rows = table(await readme('packages/client/README.md'), '## Operations');
    const listed = rows.map((row) => /^`(\w+)\(/.exec(row[0] ?? '')?.[1]);
    expect(listed).toEqual(OPERATION_IDS);
    for (const [i, id] of OPERATION_IDS.entries()) {
      const { method, path } = API_OPERATIONS[id];
      expect(rows[i]?.[1], id).toBe(`${method.toUpperCase()} \`${path}\``);
    }
    expect(API_PREFIX).toBe('/public/communities/{subdomain}');
  });

  it("mock: every flag of `questkit mock` with its environment twin and the mock's default", async () => {
    const rows = table(await readme('packages/mock-platform/README.md'), '## Command line');
    for (const flag of MOCK_FLAGS) {
      const row = rows.find((cells) => cells[0]?.startsWith(`\`--${flag.name}`));
      expect(row, `--${flag.name} in the table`).toBeDefined();
      expect(row?.[1]).toBe(`\`${flag.env}\``);
    }
    const byFlag = (name: string) =>
      rows.find((cells) => cells[0]?.startsWith(`\`--${name} `))?.[2];
    expect(byFlag('port')).toBe('`4000`');
    expect(byFlag('seed')).toBe(`\`${DEFAULT_GENERATED_USERS}\``);
    expect(byFlag('rate-limit')).toBe(`\`${DEFAULT_RATE_LIMIT_PER_SECOND}\``);
    expect(byFlag('verify-endpoint')).toBe(`\`${DEMO.verifyEndpoint}\``);
    expect(rows).toHaveLength(MOCK_FLAGS.length);
  });

  it('mock: the walkthrough claims a demo quest as a demo member', async () => {
    const text = await readme('packages/mock-platform/README.md');
    const walk = text.slice(text.indexOf('## Point a quest at your app'), text.indexOf('## Usage'));
    expect(walk).toContain(`/quests/${DEMO.quests.verifyEmail}/claims`);
    expect(walk).toContain(`{"userId":"${DEMO.users.admin}"}`);
    expect(walk).toContain(`QUEST_API_KEY=${DEMO.taskApiKey}`);
    expect(text).not.toMatch(/Swagger/i);
  });

  it("ports: the quick starts', the examples' and the demo quests' agree", async () => {
    const root = await readme('README.md');
    const port = express.readConfig({}).port;
    expect(DEMO.verifyEndpoint).toBe(`http://127.0.0.1:${port}/verify`);
    expect(root).toContain(`It listens on 127.0.0.1, port ${port} (or \`PORT\`)`);
    expect(root).toContain(`The mock's demo quests call \`${DEMO.verifyEndpoint}\``);
    for (const snippet of root.matchAll(/Number\(process\.env\.PORT\) \|\| (\d+)/g))
      expect(Number(snippet[1])).toBe(port);
    expect(await readme('test/README.md')).toContain(`port ${port})`);
  });

  it("connect example: PLATFORM_ORIGINS's default, in development and in production", async () => {
    const rows = table(await readme('examples/connect/README.md'), '| Variable | Default |');
    const cell = rows.find((row) => row[0] === '`PLATFORM_ORIGINS`')?.[1] ?? '';
    for (const origin of connect.readConfig({}).allowedCallbackOrigins ?? [])
      expect(cell).toContain(`\`${origin}\``);
    expect(connect.readConfig({ NODE_ENV: 'production' }).allowedCallbackOrigins).toBeUndefined();
    expect(cell).toContain('with `NODE_ENV=production`, any signed callback');
  });

  it('the API reference index has a line for every package', async () => {
    const index = await readme('scripts/api-index.md');
    for (const dir of await readdir(new URL('packages/', root))) {
      const { name } = JSON.parse(await readme(`packages/${dir}/package.json`)) as { name: string };
      expect(index, name).toContain(`| \`${name}\` |`);
    }
  });

  it('connect: the Confirm redirect is the same status in every adapter README and its prose', async () => {
    for (const pkg of ['express', 'fastify', 'hono']) {
      const text = await readme(`packages/${pkg}/README.md`);
      const confirm = table(text, '| Request | Answer |').find((row) =>
        row[0]?.startsWith('POST from the page, Confirm'),
      );
      expect(confirm?.[1], pkg).toMatch(/then 303 to the callback/);
      // Prose elsewhere in the README names the same statuses.
      for (const prose of text.matchAll(/`(30\d)` to the signed callback after Confirm/g))
        expect(prose[1], pkg).toBe('303');
      expect(text, pkg).not.toMatch(/`302` to the signed callback \(or/);
    }
  });
});
