import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
});

describe('pnpm start', () => {
  it('prints its URLs, serves the login page, and stops on SIGTERM', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: packageDir,
      env: { ...process.env, PORT: '0', QUEST_API_KEY: 'k', CONNECT_SECRET: 'connect-secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const verifyUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 15_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Verification endpoint: POST (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      };
      child!.stdout!.on('data', read);
      child!.stderr!.on('data', read);
      child!.once('exit', () => reject(new Error(`exited early:\n${output}`)));
    });
    const origin = new URL(verifyUrl).origin;
    expect(output).toContain(`Connect redirect URL: ${origin}/connect`);
    expect(output).not.toContain('connect-secret');
    const login = await fetch(`${origin}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('<form method="post" action="/login">');
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

// Attacks of the fifth round: in production the example started on the public demo secrets, and
// with a Redis that never answers it waited at start-up without a word.
describe('pnpm start refuses to run unsafely, and says why', () => {
  /** Runs `pnpm start` until it exits (at most 20 s); its exit code and what it printed. */
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: packageDir,
        env: { ...process.env, PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const timer = setTimeout(() => child!.kill('SIGKILL'), 20_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, output });
      });
    });

  it('NODE_ENV=production without its own secrets: exits 1 naming them, listens nowhere', async () => {
    const { code, output } = await run({ NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(output).toMatch(/QUEST_API_KEY and CONNECT_SECRET must be set/);
    expect(output).not.toMatch(/listening on/);
  }, 30_000);

  it('a Redis that never answers: exits 1 within seconds, saying so', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const { code, output } = await run({
        QUEST_API_KEY: 'k',
        CONNECT_SECRET: 'connect-secret',
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      expect(output).toMatch(/Redis \(REDIS_URL\) did not answer within 5000 ms/);
      expect(code).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 30_000);
});
