/**
 * @module
 * Standalone entry of the mock platform: `node packages/mock-platform/dist/cli.js --port 4000`.
 * The `questkit` binary runs the same code as `questkit mock`.
 */
import { runMockCli } from './cli/run.js';

void runMockCli(process.argv.slice(2), process.env).then((code) => {
  process.exitCode = code;
});
