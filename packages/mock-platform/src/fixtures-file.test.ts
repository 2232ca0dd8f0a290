import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFixtures, writeFixtures } from './fixtures-file.js';
import { seedDemo } from './seed/demo.js';
import { DEMO } from './seed/demo-ids.js';
import { createMemoryStore } from './store/memory.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'questkit-save-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function demoStore() {
  const store = createMemoryStore();
  seedDemo(store, { users: 2 });
  return store;
}

describe('writeFixtures (questkit mock --save)', () => {
  it('follows no planted symlink at the temporary name a pid predicts', async () => {
    const file = join(dir, 'state.json');
    const victim = join(dir, 'victim.txt');
    await writeFile(victim, 'keep me\n');
    // The attacker plants links at every name `<file>.<pid>.tmp` could take on this machine.
    await symlink(victim, `${file}.${process.pid}.tmp`);
    await writeFixtures(file, demoStore());
    expect(await readFile(victim, 'utf8')).toBe('keep me\n');
    expect((await lstat(file)).isSymbolicLink()).toBe(false);
    expect((await readFixtures(file)).apiKeys.map((k) => k.key)).toContain(DEMO.apiKeys.readWrite);
  });

  it('writes the file, keys and secrets inside, readable by its owner only (0600)', async () => {
    const file = join(dir, 'state.json');
    // An older file readable by everyone is replaced, not rewritten in place with its mode.
    await writeFile(file, '{}', { mode: 0o644 });
    await writeFixtures(file, demoStore());
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('leaves no temporary file behind when the rename fails', async () => {
    const target = join(dir, 'taken');
    await writeFile(join(dir, 'keep'), 'x');
    // A directory in the way: the rename fails after the temporary file is written.
    await mkdir(join(target, 'inside'), { recursive: true });
    await expect(writeFixtures(target, demoStore())).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['keep', 'taken']);
  });
});

describe('readFixtures (questkit mock --fixtures)', () => {
  // A record the contract's answer schema would refuse must fail at start-up, naming its field,
  // not later as a 500 of every list that shows it.
  it.each([
    ['webhooks.0.uri', 'not a url'],
    ['webhooks.0.uri', 'ftp://127.0.0.1/hook'],
    ['webhooks.1.events.0', 'quest claimed'],
    ['deliveries.2.eventType', 'joined'],
    ['quests.3.claimLimit', 2 ** 31],
  ])('refuses a fixture whose %s is %s', async (path, value) => {
    const keys = path.split('.');
    const last = keys.pop()!;
    const snapshot = demoStore().snapshot() as unknown as Record<string, unknown>;
    const parent = keys.reduce((node, key) => node[key] as Record<string, unknown>, snapshot);
    parent[last] = value;
    const file = join(dir, 'bad.json');
    await writeFile(file, JSON.stringify(snapshot));
    await expect(readFixtures(file)).rejects.toThrow(
      new RegExp(`invalid fixtures at ${path.replaceAll('.', '\\.')}: .+ \\(in ${file}\\)$`),
    );
  });
});
