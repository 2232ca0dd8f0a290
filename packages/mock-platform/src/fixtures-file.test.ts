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
