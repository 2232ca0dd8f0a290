// The smallest verifier a Workers user ships: `createVerifier` with `ok` and `fail`, bundled by
// esbuild from the packed tarball of @questkit/core (minified, ESM, platform neutral, as Wrangler
// bundles a Worker). `check-packages.mjs` holds it to its budget; run alone, it prints the size and
// what each package and each of core's files contributes.
//
// Usage: node scripts/verifier-bundle.mjs [core.tgz]   (without one, packs packages/core; after `pnpm build`)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The Worker: every byte it ships is core's and its dependencies'. */
const WORKER = `import { createVerifier, fail, ok } from '@questkit/core';
export default {
  fetch: (request, env) =>
    createVerifier({
      apiKey: env.QUEST_API_KEY,
      requires: ['email'],
      verify: ({ accounts }) =>
        accounts.email.endsWith('@example.com') ? ok('Welcome aboard!') : fail('Use your work email.'),
    }).fetch(request),
};
`;

/**
 * Bundles the Worker against the tarball at `tarball`, core's dependencies resolved from the
 * workspace's install of core. Returns its bytes, gzipped bytes, and bytes per package and per
 * file of core.
 */
export async function bundleMinimalVerifier(tarball) {
  const dir = mkdtempSync(join(tmpdir(), 'questkit-verifier-bundle-'));
  try {
    const core = join(dir, 'node_modules', '@questkit', 'core');
    mkdirSync(core, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', core, '--strip-components=1']);
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    const result = await build({
      entryPoints: [join(dir, 'worker.mjs')],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      metafile: true,
      nodePaths: [join(root, 'packages', 'core', 'node_modules')],
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].contents;
    const [output] = Object.values(result.metafile.outputs);
    const byPackage = new Map();
    const byCoreFile = new Map();
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(path);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
      if (name === '@questkit/core')
        byCoreFile.set(path.replace(/^.*@questkit\/core\//, ''), bytesInOutput);
    }
    return { bytes: code.length, gzipBytes: gzipSync(code).length, byPackage, byCoreFile };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The package a bundled input belongs to: the last `node_modules/<name>` of its path. */
function packageOf(path) {
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return match ? match[1] : '(the Worker)';
}

function sorted(map) {
  return [...map].filter(([, bytes]) => bytes > 0).sort((a, b) => b[1] - a[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let tarball = process.argv[2];
  let packed;
  if (!tarball) {
    packed = mkdtempSync(join(tmpdir(), 'questkit-core-pack-'));
    // The package manager pinned in package.json, reached through npx as CONTRIBUTING says.
    const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    execFileSync(
      'npx',
      [
        '--yes',
        packageManager,
        'pack',
        '--config.ignore-scripts=true',
        '--pack-destination',
        packed,
      ],
      { cwd: join(root, 'packages', 'core'), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    tarball = join(
      packed,
      readdirSync(packed).find((name) => name.endsWith('.tgz')),
    );
  }
  try {
    const { bytes, gzipBytes, byPackage, byCoreFile } = await bundleMinimalVerifier(tarball);
    console.log(`minimal Workers verifier: ${bytes} bytes, ${gzipBytes} gzipped`);
    for (const [name, size] of sorted(byPackage))
      console.log(
        `  ${name.padEnd(22)} ${String(size).padStart(7)}  ${((100 * size) / bytes).toFixed(1)} %`,
      );
    console.log('of @questkit/core:');
    for (const [file, size] of sorted(byCoreFile))
      console.log(`  ${file.padEnd(40)} ${String(size).padStart(7)}`);
  } finally {
    if (packed) rmSync(packed, { recursive: true, force: true });
  }
}
