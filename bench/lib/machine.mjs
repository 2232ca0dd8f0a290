/** What the figures were measured on: machine, runtime, versions, load. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, cpus, loadavg, release, totalmem, type } from 'node:os';
import { dirname, join } from 'node:path';
import { hasTaskset, LOAD_CORE, SERVER_CORE } from './proc.mjs';

const require = createRequire(import.meta.url);

function versionOf(name) {
  // zod and jose are core's dependencies, not the bench's: resolve them from core too.
  const requireFromCore = createRequire(require.resolve('@questkit/core/package.json'));
  for (const resolver of [require, requireFromCore]) {
    try {
      return readVersion(resolver, name);
    } catch {
      // try the next resolver
    }
  }
  return null;
}

/** The version of `name`, also for packages whose `exports` hide their package.json (hono). */
function readVersion(resolver, name) {
  try {
    return JSON.parse(readFileSync(resolver.resolve(`${name}/package.json`), 'utf8')).version;
  } catch {
    let dir = dirname(resolver.resolve(name));
    for (let depth = 0; depth < 6; depth++, dir = dirname(dir)) {
      const file = join(dir, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      if (manifest.name === name) return manifest.version;
    }
    throw new Error(`no package.json for ${name}`);
  }
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      timeout: 5000,
    }).trim();
  } catch {
    return null;
  }
}

/** The machine and runtime, captured at the start of a run. */
export function describeMachine() {
  const cpuList = cpus();
  return {
    cpu: cpuList[0]?.model ?? 'unknown',
    cores: cpuList.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()} ${arch()}`,
    node: process.version,
    v8: process.versions.v8,
    pinning: hasTaskset()
      ? `taskset: servers on core ${SERVER_CORE}, load on core ${LOAD_CORE}`
      : 'none (taskset not found): server and load share the cores',
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    gitCommit: gitCommit(),
    versions: Object.fromEntries(
      [
        'express',
        'express4',
        'fastify',
        'hono',
        '@hono/node-server',
        'autocannon',
        'mitata',
        'zod',
        'jose',
      ].map((name) => [name, versionOf(name)]),
    ),
  };
}

/** The 1, 5 and 15 minute load averages now: other work on the machine adds noise. */
export function currentLoadAverage() {
  return loadavg().map((value) => Math.round(value * 100) / 100);
}
