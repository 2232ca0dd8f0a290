import { readFile, rename, writeFile } from 'node:fs/promises';
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

/** Writes the store's state as a fixtures file, through a temporary file so a crash leaves no half file. */
export async function writeFixtures(file: string, store: Store): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(store.snapshot(), null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}
