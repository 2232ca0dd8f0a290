import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { parseSnapshot } from './store/snapshot.js';
import type { Store, StoreSnapshot } from './store/store.js';

/** Reads and checks a fixtures file. Throws a TypeError naming the file and the bad field. */
export async function readFixtures(file: string): Promise<StoreSnapshot> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TypeError(
      `[@questkit/mock-platform] cannot read fixtures ${file}: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TypeError(`[@questkit/mock-platform] fixtures ${file} is not valid JSON`);
  }
  try {
    return parseSnapshot(json);
  } catch (error) {
    throw new TypeError(`${(error as Error).message} (in ${file})`);
  }
}

/**
 * Writes the store's state as a fixtures file, readable by its owner only: keys and secrets are
 * in it (see {@link writePrivateFile}).
 */
export async function writeFixtures(file: string, store: Store): Promise<void> {
  await writePrivateFile(file, `${JSON.stringify(store.snapshot(), null, 2)}\n`);
}

/**
 * Writes `text` to `file` with mode 0600, through a temporary file beside it created exclusively
 * under an unpredictable name (a link planted there is never followed), then renamed over the
 * file, so a crash leaves no half file and an older file's wider mode is not kept.
 */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
