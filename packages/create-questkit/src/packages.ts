import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UsageError } from './options.js';

// `pnpm pack` names a tarball after its package: questkit-core-0.1.0.tgz is @questkit/core,
// questkit-0.1.0.tgz the `questkit` command line.
const TARBALL = /^(questkit(?:-[a-z-]+?)?)-(\d+\.\d+\.\d+[^/]*)\.tgz$/;

/**
 * The `file:` spec of each @questkit package packed in `dir` (`pnpm pack:all <dir>`), relative to
 * the project's folder, for a project that installs from them before they are published.
 */
export function localPackages(dir: string, project: string): Record<string, string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new UsageError(`--packages: cannot read the folder ${dir}`);
  }
  const specs: Record<string, string> = {};
  for (const file of names.sort()) {
    const match = TARBALL.exec(file);
    if (!match) continue;
    const name =
      match[1] === 'questkit' ? 'questkit' : `@questkit/${match[1]!.slice('questkit-'.length)}`;
    const path = relative(resolve(project), resolve(dir, file)).split('\\').join('/');
    specs[name] = `file:${path.startsWith('.') ? path : `./${path}`}`;
  }
  if (Object.keys(specs).length === 0) {
    throw new UsageError(
      `--packages: no questkit*.tgz in ${dir}; pack them first (pnpm pack:all ${join(dir)})`,
    );
  }
  return specs;
}
