import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * `npm start` on a free port of 127.0.0.1, with `env` as the environment (the build is
 * test/build.ts's); `output()` is what it printed so far.
 */
export async function startApp(env: Record<string, string>) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // PUBLIC_URL: the origin the platform signs (Next.js reports a host of its own).
  const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env, PUBLIC_URL: origin };
  const check = spawnSync(process.execPath, ['check-env.mjs'], {
    cwd: ROOT,
    env: childEnv,
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(check.stderr);
  const child = spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // What the app printed, on stdout and stderr, for the tests to read (a sign-in code, a warning).
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
  }
  const close = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  };
  // Bounded: 60 s for next start to answer.
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null)
      throw new Error(`next start exited with ${child.exitCode}: ${output}`);
    if (
      await fetch(origin).then(
        () => true,
        () => false,
      )
    )
      return { origin, close, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await close();
  throw new Error('next start did not answer within 60 s');
}
