import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { STORY_STEPS } from '@questkit/demo';
import { describe, expect, it } from 'vitest';

// `pnpm demo --once` minus the build (CI has built already): the demo's entry run by tsx, as its
// `start` script does, with a time bound.
const demoDir = fileURLToPath(new URL('../../examples/demo', import.meta.url));
const LIMIT_MS = 50_000;

function runDemo(
  args: string[],
  onStdout?: (stdout: string, child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: demoDir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('pnpm demo --once', () => {
  it('tells the whole story, every step as expected, and exits 0', async () => {
    const { code, stdout, stderr } = await runDemo(['--once']);
    expect(stderr).toBe('');
    expect(stdout).toContain(`All ${STORY_STEPS} steps behaved as expected.`);
    expect(stdout).not.toContain('✗');
    expect(code).toBe(0);
    for (const step of [
      'automatic check of http://127.0.0.1:',
      'claim success (claimed)',
      'claim failed (not-verified); the member sees "Your email address is not on our newsletter list',
      'claim failed (account-not-linked)',
      'identifier=member-1002',
      'with accounts {"svc-connect":"member-1002"} -> 200',
      'the receiver checked the secret and handled JOINED_COMMUNITY',
      'a replay of the delivery is answered 200 and deduplicated: the event was handled 1 time',
      'the community asks before linking: "Link your Acme Builders account ben to platform member',
      'platform checks: response_time pass, message_format pass, status_code pass',
    ]) {
      expect(stdout).toContain(step);
    }
    // No secret reaches the output: not the task key, not the webhook or connect secret, no
    // full signature (64 hex digits).
    expect(stdout).not.toMatch(/qk_task_|whsec_|"secret"|[0-9a-f]{64}/);
  }, 60_000);

  it('ends on Ctrl-C with one line and status 0', async () => {
    let interrupted = false;
    const { code, signal, stdout, stderr } = await runDemo([], (out, child) => {
      if (interrupted || !out.includes('Press Ctrl-C to stop.')) return;
      interrupted = true;
      child.kill('SIGINT');
      // A terminal signals every process of its group: a second signal must not change the end.
      setTimeout(() => child.kill('SIGINT'), 5);
    });
    expect(interrupted).toBe(true);
    expect(stderr).toBe('');
    expect(stdout.slice(stdout.indexOf('Press Ctrl-C to stop.\n'))).toBe(
      'Press Ctrl-C to stop.\nquestkit demo stopped.\n',
    );
    expect(signal).toBeNull();
    expect(code).toBe(0);
  }, 60_000);

  it('refuses an unknown argument with its usage and status 2', async () => {
    const { code, stderr } = await runDemo(['--twice']);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown argument: --twice');
    expect(stderr).toContain('Usage: pnpm demo [--once]');
  });
});
