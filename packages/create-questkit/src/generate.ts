import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ProjectOptions } from './options.js';
import { renderTemplate } from './template.js';

/**
 * Every file of a project, by path relative to its folder (`/` separators), contents as text.
 * Pure: nothing is written.
 *
 * @example
 * const files = projectFiles({ name: 'my-app', framework: 'hono', requires: ['email'], connect: false, webhooks: false });
 * console.log(Object.keys(files));
 */
export function projectFiles(options: ProjectOptions): Record<string, string> {
  return renderTemplate(options);
}

/** Why a folder cannot take a project: it is a file, or holds anything but `.git`. */
export class TargetNotEmptyError extends Error {
  override readonly name = 'TargetNotEmptyError';
}

/** Options of {@link writeProject}. */
export interface WriteOptions {
  /** Write into a folder that already holds files, replacing the project's own files there. */
  force?: boolean;
}

/**
 * Writes the project into `directory` (created when missing) and returns the paths written.
 * Refuses, before writing anything, a folder that holds anything but `.git`, unless `force`, and
 * with `force` a symbolic link where a file or folder of the project goes.
 *
 * @example
 * await writeProject('my-app', { name: 'my-app', framework: 'express', requires: ['email'], connect: false, webhooks: false });
 */
export async function writeProject(
  directory: string,
  options: ProjectOptions,
  write: WriteOptions = {},
): Promise<string[]> {
  const target = resolve(directory);
  const existing = await stat(target).catch(() => undefined);
  if (existing && !existing.isDirectory()) {
    throw new TargetNotEmptyError(`${directory} exists and is not a folder`);
  }
  if (existing && !write.force) {
    const entries = (await readdir(target)).filter((entry) => entry !== '.git');
    if (entries.length > 0) {
      throw new TargetNotEmptyError(
        `${directory} is not empty (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, e.g. ${entries.sort()[0]}): choose another folder, or pass --force to write the project's files over what is there`,
      );
    }
  }
  const files = projectFiles(options);
  // Before anything is written: a link inside the folder would carry a file outside it.
  for (const path of Object.keys(files)) {
    const parts = path.split('/');
    for (let depth = 1; depth <= parts.length; depth++) {
      const at = join(target, ...parts.slice(0, depth));
      const found = await lstat(at).catch(() => undefined);
      if (found?.isSymbolicLink()) {
        throw new TargetNotEmptyError(
          `${join(directory, ...parts.slice(0, depth))} is a symbolic link: the project's files are never written through one; remove it or choose another folder`,
        );
      }
      if (!found) break;
    }
  }
  for (const [path, contents] of Object.entries(files)) {
    const file = join(target, ...path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    // O_NOFOLLOW: a link made since the check above is refused too, not followed.
    const handle = await open(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
    );
    try {
      await handle.writeFile(contents);
    } finally {
      await handle.close();
    }
  }
  return Object.keys(files);
}
