import { type ChildProcess, spawn } from 'node:child_process';
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
