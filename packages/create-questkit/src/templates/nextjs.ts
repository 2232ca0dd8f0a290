import type { ProjectOptions } from '../options.js';
import { envVariables } from './secrets.js';

/** The files of a Next.js (App Router) project, besides the shared ones. */
export function nextFiles(options: ProjectOptions): Record<string, string> {
  const required = envVariables(options).filter((variable) => variable.required);
  const files: Record<string, string> = {
    'next.config.mjs': `/** @type {import('next').NextConfig} */
export default {};
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['dom', 'dom.iterable', 'ES2023'],
          allowJs: false,
          skipLibCheck: true,
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          esModuleInterop: true,
          module: 'esnext',
          moduleResolution: 'bundler',
          resolveJsonModule: true,
          isolatedModules: true,
          jsx: 'react-jsx',
          incremental: false,
          plugins: [{ name: 'next' }],
          types: ['node', 'react'],
        },
        include: [
          'next-env.d.ts',
          'app',
          'lib',
          'test',
          '.next/types/**/*.ts',
          '.next/dev/types/**/*.ts',
        ],
        exclude: ['node_modules'],
      },
      null,
      2,
    )}\n`,
    'check-env.mjs': `// Run by \`npm run dev\` and \`npm start\`: the app refuses to start without its secrets. Next.js
// reads .env files itself; this check reads them the same way (never overriding the environment).
import { existsSync } from 'node:fs';

for (const file of ['.env.local', '.env']) if (existsSync(file)) process.loadEnvFile(file);
const missing = ${JSON.stringify(required.map((variable) => variable.name))}.filter(
  (name) => !process.env[name]?.trim(),
);
if (missing.length > 0) {
  console.error(\`[${options.name}] set \${missing.join(', ')} in the environment (see .env.example)\`);
  process.exit(1);
}${
      options.connect
        ? `
if (process.env.SESSION_SECRET.length < 32) {
  console.error('[${options.name}] SESSION_SECRET needs 32 characters or more (openssl rand -hex 32)');
  process.exit(1);
}`
        : ''
    }
`,
    'app/layout.tsx': `export const metadata = { title: '${options.name}' };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
    'app/page.tsx': `export default function Home() {
  return (
    <main>
      <h1>${options.name}</h1>
      <p>POST /api/verify answers the platform's claims.</p>
    </main>
  );
}
`,
    'app/api/verify/route.ts': `import { getVerifier } from '../../../lib/endpoints';

// The Node.js runtime: the verifier reads the body itself, within its own limits.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const answer = (request: Request) => getVerifier().fetch(request);

// POST is the platform's call; every other method gets the contract's 400 {message}, not a 405.
export { answer as POST, answer as GET, answer as PUT, answer as PATCH, answer as DELETE };
`,
    'lib/endpoints.ts': endpointsFile(options),
  };
  if (options.connect) {
    files['app/api/connect/route.ts'] = `import { publicRequestUrl } from '@questkit/core';
import { requestFromWeb, responseFromAnswer } from '@questkit/core/adapter';
import { getConnectFlow } from '../../../lib/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// GET shows the member what would be linked; the POST of its Confirm links. Next.js reports
// request.url with a host of its own: with PUBLIC_URL set, the path is joined to it instead.
const connect = async (request: Request) => {
  const flow = getConnectFlow();
  const { pathname, search } = new URL(request.url);
  const url = flow.publicOrigin ? publicRequestUrl(pathname + search, flow.publicOrigin) : request.url;
  return responseFromAnswer(await flow.handle({ ...requestFromWeb(request), url }, request));
};

export { connect as GET, connect as POST };
`;
    files['app/login/page.tsx'] = `export default function Login() {
  return (
    <main>
      <h1>Log in</h1>
      <p>
        Your login goes here: once the member proved who they are, set the cookie of
        sessionCookie(memberId, SESSION_SECRET) (lib/session.ts) and send them to returnTo.
      </p>
    </main>
  );
}
`;
  }
  if (options.webhooks) {
    files['app/api/webhooks/route.ts'] =
      `import { requestFromWeb, responseFromAnswer } from '@questkit/core/adapter';
import { getWebhookReceiver } from '../../../lib/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The receiver reads the body itself, within its size limit and deadline.
export const POST = async (request: Request) =>
  responseFromAnswer(await getWebhookReceiver().handle(requestFromWeb(request), request));
`;
  }
  return files;
}

function endpointsFile(options: ProjectOptions): string {
  const imports = ['createVerifier'];
  if (options.connect) imports.unshift('createConnectFlow');
  if (options.webhooks) imports.push('createWebhookReceiver');
  return `import { ${imports.join(', ')} } from '@questkit/core';
import { REQUIRES, verify } from './quest';${options.connect ? "\nimport { sessionMember } from './session';" : ''}

// Built at the first request, not at import: \`next build\` loads route modules without the
// deployment's secrets, which are read from its environment at run time.
let verifier: ReturnType<typeof createVerifier> | undefined;${
    options.connect ? '\nlet flow: ReturnType<typeof createConnectFlow<Request>> | undefined;' : ''
  }${options.webhooks ? '\nlet receiver: ReturnType<typeof createWebhookReceiver> | undefined;' : ''}

const required = (name: string) => {
  const value = process.env[name]?.trim();
  if (!value) throw new TypeError(\`[${options.name}] set \${name} in the environment\`);
  return value;
};

/** The verification endpoint. */
export function getVerifier() {
  verifier ??= createVerifier({
    apiKey: required('QUEST_API_KEY').split(',').map((key) => key.trim()),
    requires: REQUIRES,
    verify,
  });
  return verifier;
}
${
  options.connect
    ? `
/** The community side of the identity-connect flow, with the app's signed session (session.ts). */
export function getConnectFlow() {
  if (flow) return flow;
  const sessionSecret = required('SESSION_SECRET');
  flow = createConnectFlow<Request>({
    secret: required('CONNECT_SECRET'),
    appName: '${options.name}',
    // The member of a session this app signed: a cookie a visitor wrote names nobody.
    getIdentifier: (request) => sessionMember(request.headers.get('cookie'), sessionSecret),
    loginUrl: '/login',
    ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  });
  return flow;
}
`
    : ''
}${
  options.webhooks
    ? `
/** The webhook receiver. */
export function getWebhookReceiver() {
  receiver ??= createWebhookReceiver({
    secret: required('WEBHOOK_SECRET'),
    // Each event type you subscribed to on the platform; answer fast, do slow work later.
    on: { JOINED_COMMUNITY: (event) => console.log(\`new member: \${event.data.userId}\`) },
  });
  return receiver;
}
`
    : ''
}`;
}

/** `test/start.ts` and the build the tests share (`test/build.ts`, a vitest global setup). */
export const NEXT_TEST_FILES: Record<string, string> = {
  'test/build.ts': `import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Once before the tests: \`next build\`, so they start the app as it ships. */
export default async function build() {
  const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
  await promisify(execFile)(process.execPath, [next, 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    timeout: 600_000,
  });
}
`,
  'test/start.ts': `import { spawn, spawnSync } from 'node:child_process';
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

/** \`npm start\` on a free port of 127.0.0.1, with \`env\` as the environment (the build is test/build.ts's). */
export async function startApp(env: Record<string, string>) {
  const port = await freePort();
  const origin = \`http://127.0.0.1:\${port}\`;
  // PUBLIC_URL: the origin the platform signs (Next.js reports a host of its own).
  const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env, PUBLIC_URL: origin };
  const check = spawnSync(process.execPath, ['check-env.mjs'], { cwd: ROOT, env: childEnv, encoding: 'utf8' });
  if (check.status !== 0) throw new Error(check.stderr);
  const child = spawn(process.execPath, [NEXT, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: ROOT,
    env: childEnv,
    stdio: 'ignore',
  });
  const close = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  };
  // Bounded: 60 s for next start to answer.
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(\`next start exited with \${child.exitCode}\`);
    if (await fetch(origin).then(() => true, () => false)) return { origin, close };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await close();
  throw new Error('next start did not answer within 60 s');
}
`,
};
