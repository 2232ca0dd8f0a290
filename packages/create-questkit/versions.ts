// Build-time only (tsup and vitest): the @questkit versions the generated package.json depends on,
// read from this repository, so a released generator names the packages released with it. The
// other packages' ranges are written in each template's package.json.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    private?: boolean;
  };

/** The range of each published @questkit package (and the `questkit` CLI): `^0.1.0`. */
export function readVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    const pkg = manifest(`packages/${dir}`);
    if (!pkg.private && pkg.name !== 'create-questkit') versions[pkg.name] = `^${pkg.version}`;
  }
  return versions;
}
