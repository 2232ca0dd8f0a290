/**
 * Builds and starts the corpus's Next.js app (`next-app/`) once, for both test files: its
 * verification routes for corpus.test.ts, its connect routes and webhook receiver for
 * flows.test.ts. A `next build` costs seconds of CPU; one is enough.
 */
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEMO } from '@questkit/mock-platform';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

/** What the test files need of the running app. */
export interface NextApp {
  /** Where it listens, `http://127.0.0.1:<port>`. */
  origin: string;
  /** The task key its verification routes compare with X-Api-Key (QUEST_API_KEY). */
  apiKey: string;
  /** The connect secret its connect routes sign with (CONNECT_SECRET): the demo community's. */
  connectSecret: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    nextApp: NextApp;
  }
}

const APP = fileURLToPath(new URL('../next-app', import.meta.url));
const NEXT = createRequire(import.meta.url).resolve('next/dist/bin/next');

export default async function setup(project: TestProject): Promise<() => void> {
  const port = String(await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const app: NextApp = {
    origin,
    apiKey: 'corpus-task-key-8c1f',
    connectSecret: DEMO.connectSecret,
  };
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: '1',
    QUEST_API_KEY: app.apiKey,
    CONNECT_SECRET: app.connectSecret,
    // The HMAC receiver wants a signature header the platform never sends: any secret shows it.
    WEBHOOK_SECRET: 'the-receiver-expects-a-header-anyway',
    // The public origin the connect routes rebuild their signed URL on.
    APP_URL: origin,
  };
  await promisify(execFile)(process.execPath, [NEXT, 'build'], {
    cwd: APP,
    env,
    timeout: 300_000,
  });
  const next = spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', port], {
    cwd: APP,
    env,
    stdio: 'ignore',
  });
  try {
    await answers(`${origin}/api/verify`);
  } catch (error) {
    next.kill();
    throw error;
  }
  project.provide('nextApp', app);
  return () => next.kill();
}

/** Resolves once `url` answers at all, polling for at most 30 s. */
async function answers(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`next start did not answer at ${url} within 30 s`);
}
