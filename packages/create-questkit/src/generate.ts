import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { ProjectOptions } from './options.js';
import { NEXT_TEST_FILES, nextFiles } from './templates/nextjs.js';
import { appFile, configFile, mainFile, NODE_START_FILE, serverFile } from './templates/node.js';
import { ciWorkflow, gitignore, packageJson, readme, vitestConfig } from './templates/project.js';
import { questFile } from './templates/quest.js';
import { envExample } from './templates/secrets.js';
import { SESSION_FILE } from './templates/session.js';
import { connectTest, endpointTest, testEnvFile, webhooksTest } from './templates/tests.js';
import { workerFiles } from './templates/workers.js';

const NODE_TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      esModuleInterop: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
    },
    include: ['src', 'test'],
  },
  null,
  2,
)}\n`;

const NODE_BUILD_TSCONFIG = `${JSON.stringify(
  {
    extends: './tsconfig.json',
    compilerOptions: { noEmit: false, outDir: 'dist', rootDir: 'src' },
    include: ['src'],
  },
  null,
  2,
)}\n`;

/**
 * Every file of a project, by path relative to its folder (`/` separators), contents as text.
 * Pure: nothing is written.
 *
 * @example
 * const files = projectFiles({ name: 'my-app', framework: 'hono', requires: ['email'], connect: false, webhooks: false });
 * console.log(Object.keys(files));
 */
export function projectFiles(options: ProjectOptions): Record<string, string> {
  const code = options.framework === 'nextjs' ? 'lib' : 'src';
  const files: Record<string, string> = {
    'package.json': packageJson(options),
    'README.md': readme(options),
    '.env.example': envExample(options),
    '.gitignore': gitignore(options),
    '.github/workflows/ci.yml': ciWorkflow(options),
    'vitest.config.ts': vitestConfig(options),
    [`${code}/quest.ts`]: questFile(options),
    'test/env.ts': testEnvFile(options),
    'test/endpoint.test.ts': endpointTest(options),
  };
  if (options.connect) {
    files[`${code}/session.ts`] = SESSION_FILE;
    files['test/connect.test.ts'] = connectTest(options);
  }
  if (options.webhooks) files['test/webhooks.test.ts'] = webhooksTest(options);
  switch (options.framework) {
    case 'express':
    case 'fastify':
    case 'hono':
      Object.assign(files, {
        'tsconfig.json': NODE_TSCONFIG,
        'tsconfig.build.json': NODE_BUILD_TSCONFIG,
        'src/config.ts': configFile(options),
        'src/app.ts': appFile(options.framework, options),
        'src/server.ts': serverFile(options.framework),
        'src/main.ts': mainFile(options),
        'test/start.ts': NODE_START_FILE,
      });
      break;
    case 'nextjs':
      Object.assign(files, nextFiles(options), NEXT_TEST_FILES);
      break;
    case 'workers':
      Object.assign(files, workerFiles(options));
      break;
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
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
 * Refuses, before writing anything, a folder that holds anything but `.git`, unless `force`.
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
  for (const [path, contents] of Object.entries(files)) {
    const file = join(target, ...path.split('/'));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, contents);
  }
  return Object.keys(files);
}
