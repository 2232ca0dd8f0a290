import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built binary, as a user runs it (`pnpm build` runs before the tests).
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

function questkit(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 15_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('questkit usage', () => {
  it('prints its version with --version, -v and version', async () => {
    for (const flag of ['--version', '-v', 'version']) {
      const run = await questkit([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`questkit ${version}\n`);
    }
  });

  it('suggests the flag a user meant', async () => {
    const run = await questkit(['check', 'http://127.0.0.1:9/verify', '--apikey', 'k']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option '--apikey'");
    expect(run.stderr).toContain('(did you mean --api-key?)');
  });

  it('suggests the command a user meant', async () => {
    const run = await questkit(['chekc']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "chekc" (did you mean "check"?)');
  });

  it('adds no hint when nothing is close', async () => {
    const run = await questkit(['check', 'http://127.0.0.1:9/verify', '--zzzzzzzz']);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('did you mean');
  });
});
