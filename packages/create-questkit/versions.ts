// Build-time only (tsup and vitest): the versions the generated package.json depends on, read from
// this repository, so a released generator names the @questkit packages released with it and the
// framework versions the examples are tested with.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = (path: string) =>
  JSON.parse(readFileSync(join(ROOT, path, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    private?: boolean;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

/** Third-party packages and the workspace package whose manifest names the range to use. */
const THIRD_PARTY: Record<string, string> = {
  express: 'examples/express',
  '@types/express': 'examples/express',
  fastify: 'examples/fastify',
  hono: 'examples/hono',
  '@hono/node-server': 'examples/hono',
  tsx: 'examples/hono',
  next: 'examples/nextjs',
  react: 'examples/nextjs',
  'react-dom': 'examples/nextjs',
  '@types/react': 'examples/nextjs',
  typescript: '.',
  vitest: '.',
  '@types/node': '.',
};

/** Every version the templates use, by package name: `^0.1.0` for the published @questkit packages. */
export function readVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    const pkg = manifest(`packages/${dir}`);
    if (!pkg.private && pkg.name !== 'create-questkit') versions[pkg.name] = `^${pkg.version}`;
  }
  for (const [name, path] of Object.entries(THIRD_PARTY)) {
    const pkg = manifest(path);
    const range = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
    if (!range) throw new Error(`versions: ${path}/package.json names no ${name}`);
    versions[name] = /^\d/.test(range) && path === '.' ? `^${range}` : range;
  }
  // Not in this repository (it needs Node 22): the generated Worker's `dev` and `deploy` only.
  versions.wrangler = '^4.0.0';
  return versions;
}
