import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
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
  env: Record<string, string> = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: demoDir,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child, onStdout);
}

function collect(
  child: ChildProcess,
  onStdout?: (stdout: string, child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout, child);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
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

  // In a terminal Ctrl-C signals every process of the group, `npx` too, and npm's `exec` ends
  // with 130 on SIGINT whatever its command answered: the demo reads Ctrl-C as a key there.
  // util-linux's `script` gives it a terminal; npm exec stands for the `npx pnpm` that starts it.
  it('ends on a Ctrl-C typed in a terminal with status 0, under npm exec too, on the port asked', async () => {
    const port = await freePortRange();
    const child = spawn(
      'script',
      ['-qec', 'npm exec -- node --import tsx src/main.ts', '/dev/null'],
      {
        cwd: demoDir,
        env: { ...process.env, NO_COLOR: '1', QUESTKIT_DEMO_PORT: String(port) },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let typed = false;
    const { code, signal, stdout } = await collect(child, (out) => {
      if (typed || !out.includes('Press Ctrl-C to stop.')) return;
      typed = true;
      child.stdin?.write('\x03');
    });
    expect(typed, `the demo ended before it was ready:\n${stdout}`).toBe(true);
    expect(stdout).toContain(`mock platform          http://127.0.0.1:${port} `);
    expect(stdout).toContain(`shop (Express)         http://127.0.0.1:${port + 1}/verify`);
    expect(stdout).toContain(`webhook receiver       http://127.0.0.1:${port + 5}/webhooks`);
    expect(stdout).toContain('Press Ctrl-C to stop.\r\nquestkit demo stopped.\r\n');
    expect(signal).toBeNull();
    expect(code).toBe(0);
  }, 60_000);

  it('refuses an unknown argument with its usage and status 2', async () => {
    const { code, stderr } = await runDemo(['--twice']);
    expect(code).toBe(2);
    expect(stderr).toContain('Unknown argument: --twice');
    expect(stderr).toContain('Usage: pnpm demo [--once]');
  });

  it('refuses a port that is not one, from the flag or the environment, with status 2', async () => {
    const flag = await runDemo(['--port', '4x']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      '--port must be 0 (free ports) or a port from 1 to 65530, not "4x"',
    );
    const env = await runDemo([], undefined, { QUESTKIT_DEMO_PORT: '70000' });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('QUESTKIT_DEMO_PORT must be 0 (free ports) or a port from 1');
  });

  it('says which ports are taken when one is, with status 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const { code, stderr } = await runDemo([`--port=${port}`]).finally(() => taken.close());
    expect(code).toBe(1);
    expect(stderr).toContain(
      `The demo could not start: a port from ${port} to ${port + 5} is in use; pick another --port, or 0 for free ports.`,
    );
  });
});

/**
 * The first of six consecutive ports that are free now, below the system's ephemeral range: the
 * other suites' servers listen on port 0 and get ephemeral ports, so none of them can take one of
 * the six between this check and the demo's start (the five after a port the system just gave out
 * were taken that way under CI's load).
 */
async function freePortRange(count = 6): Promise<number> {
  const ephemeral = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').then(
    (text) => Number(text.trim().split(/\s+/)[0]) || 32768,
    () => 32768,
  );
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20000 + Math.floor(Math.random() * (ephemeral - 20000 - count));
    const servers = Array.from({ length: count }, () => createServer());
    const bound = await Promise.all(
      servers.map(
        (server, i) =>
          new Promise<boolean>((resolve) => {
            server.once('error', () => resolve(false));
            server.listen(first + i, '127.0.0.1', () => resolve(true));
          }),
      ),
    );
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
    if (bound.every(Boolean)) return first;
  }
  throw new Error(`no ${count} consecutive free ports below ${ephemeral} in 50 tries`);
}
