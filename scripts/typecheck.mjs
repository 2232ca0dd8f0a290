// `pnpm typecheck`: every workspace package's own type check (the tsconfig files its `typecheck`
// script names) and the root tsconfig, in one `tsc --build` process per core: a process parses the
// libraries and @types/node once for all its projects, not once a project. `--force`: every project
// is checked, whatever an earlier run left in its .tsbuildinfo.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The workspace's package folders, from pnpm-workspace.yaml's `packages:` list. */
function workspaceDirs() {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = /^packages:\n((?:\s+- .+\n)+)/m.exec(yaml)?.[1] ?? '';
  return list
    .split('\n')
    .map((line) => line.replace(/^\s+- /, '').trim())
    .filter(Boolean)
    .flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(join(root, pattern.slice(0, -2))).map(
            (name) => `${pattern.slice(0, -2)}/${name}`,
          )
        : [pattern],
    )
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .sort();
}

/** The tsconfig files a package's `typecheck` script checks: `tsc --noEmit [-p file]` commands. */
function projectsOf(dir) {
  const script = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).scripts
    ?.typecheck;
  if (script === undefined) return [];
  return script.split('&&').map((command) => {
    const match = /^tsc --noEmit(?: -p (\S+))?$/.exec(command.trim());
    if (!match) {
      throw new Error(`${dir}: typecheck runs "${command.trim()}", not tsc --noEmit [-p file]`);
    }
    return join(dir, match[1] ?? 'tsconfig.json');
  });
}

const projects = [...workspaceDirs().flatMap(projectsOf), 'tsconfig.json'];
const processes = Math.min(availableParallelism(), projects.length);
const groups = Array.from({ length: processes }, (_, i) =>
  projects.filter((_, index) => index % processes === i),
);

// Each process's output is printed whole when it ends, so that two never interleave.
const results = await Promise.all(
  groups.map(
    (group) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [tsc, '--build', '--force', ...group], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
        });
        child.stderr.on('data', (chunk) => {
          output += chunk;
        });
        child.once('close', (code) => resolve({ code, output }));
      }),
  ),
);
for (const { output } of results) process.stdout.write(output);
const failed = results.filter(({ code }) => code !== 0).length;
console.log(
  `typecheck: ${projects.length} projects in ${processes} tsc --build processes, ${failed === 0 ? 'no errors' : `errors in ${failed}`}`,
);
process.exit(failed === 0 ? 0 : 1);
