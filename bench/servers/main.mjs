/**
 * Entry of every server process of the benchmarks: `node servers/main.mjs <module> [args...]`.
 * `<module>` is a file of this folder without its extension, or a path to an `.mjs` file.
 * The module's `start(args)` listens on 127.0.0.1 and returns `{ port, close, server?, info?,
 * counters? }` (`server`, the node:http server, for the in-process pairs).
 * The parent talks to this process over IPC only:
 *   -> { type: 'ready', port, info }                 once listening
 *   <- 'stats'    -> { type: 'stats', ... }          peak RSS, CPU time so far, the module's counters
 *   <- 'shutdown' -> closes and exits 0 (so that --cpu-prof writes its profile)
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { monotonicNow, resourceStats } from '../lib/resources.mjs';

const [moduleName, ...args] = process.argv.slice(2);
if (!moduleName || !process.send) {
  console.error('usage: node servers/main.mjs <module> [args...] (spawned with an IPC channel)');
  process.exit(2);
}

// A bare name is a module of this folder; a path to an .mjs file (an experiment on a patched copy
// of a package, say) is imported as given.
const moduleUrl = moduleName.endsWith('.mjs')
  ? pathToFileURL(resolve(moduleName)).href
  : new URL(`./${moduleName}.mjs`, import.meta.url).href;
const { start } = await import(moduleUrl);
const server = await start(args);

process.on('message', async (message) => {
  if (message === 'stats') {
    const counters = server.counters?.() ?? null;
    process.send({ type: 'stats', at: monotonicNow(), ...resourceStats(), counters });
  } else if (message === 'shutdown') {
    await server.close();
    process.exit(0);
  }
});
// The parent died: do not linger.
process.on('disconnect', () => process.exit(0));

process.send({ type: 'ready', port: server.port, info: server.info ?? null });
