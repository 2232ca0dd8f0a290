import type { ProjectOptions } from '../options.js';
import { envVariables } from './secrets.js';

/** The files of a Cloudflare Workers (Hono) project, besides the shared ones. */
export function workerFiles(options: ProjectOptions): Record<string, string> {
  const variables = envVariables(options);
  const required = variables.filter((variable) => variable.required).map((v) => v.name);
  const imports = ['verificationEndpoint'];
  if (options.connect) imports.unshift('connectEndpoint');
  if (options.webhooks) imports.push('webhookEndpoint');
  const envFields = variables
    .map(
      (variable) =>
        `  /** ${variable.about} */\n  ${variable.name}${variable.required ? '' : '?'}: string;`,
    )
    .join('\n');
  return {
    'wrangler.toml': `# npm run deploy (secrets first: ${required.map((name) => `npx wrangler secret put ${name}`).join('; ')})
name = "${options.name.replace(/^@[^/]+\//, '')}"
main = "src/index.ts"
compatibility_date = "2025-07-18"
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          noEmit: true,
          isolatedModules: true,
          types: [],
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
    'tsconfig.test.json': `${JSON.stringify(
      {
        extends: './tsconfig.json',
        compilerOptions: { types: ['node'] },
        include: ['src', 'test', 'scripts'],
      },
      null,
      2,
    )}\n`,
    'src/index.ts': `/**
 * The community's endpoints as a Cloudflare Worker, with Hono. Secrets come from the Worker's
 * \`env\` (\`wrangler secret put ...\`), never \`process.env\`, and no \`node:\` API is used.
 */
import { ${imports.join(', ')} } from '@questkit/hono';
import { Hono } from 'hono';
import { REQUIRES, verify } from './quest.js';${options.connect ? "\nimport { sessionMember } from './session.js';" : ''}

/** The Worker's bindings: its secrets. */
export interface Env {
${envFields}
}

type AppEnv = { Bindings: Env };

const REQUIRED = ${JSON.stringify(required)} as const;

/** The secrets \`env\` lacks: the Worker answers nothing but an error until they are set. */
export function missingSecrets(env: Partial<Env>): string[] {
  return REQUIRED.filter((name) => !env[name]?.trim());
}

/** The endpoints of one \`env\`, built once per isolate: options are checked when they are built. */
function endpointsOf(env: Env) {
  const missing = missingSecrets(env);
  if (missing.length > 0) {
    throw new TypeError(\`[${options.name}] set \${missing.join(', ')} (wrangler secret put)\`);
  }${
    options.connect
      ? `
  if (env.SESSION_SECRET.length < 32) {
    throw new TypeError('[${options.name}] SESSION_SECRET needs 32 characters or more');
  }`
      : ''
  }
  return {
    verify: verificationEndpoint<(typeof REQUIRES)[number], AppEnv>({
      apiKey: env.QUEST_API_KEY.split(',').map((key) => key.trim()),
      requires: REQUIRES,
      verify,
    }),${
      options.connect
        ? `
    connect: connectEndpoint<AppEnv>({
      secret: env.CONNECT_SECRET,
      ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
      appName: '${options.name}',
      // The member of a session this Worker signed (src/session.ts): a cookie a visitor wrote names nobody.
      getIdentifier: (c) => sessionMember(c.req.header('cookie'), env.SESSION_SECRET),
      loginUrl: '/login',
    }),`
        : ''
    }${
      options.webhooks
        ? `
    webhooks: webhookEndpoint<AppEnv>({
      secret: env.WEBHOOK_SECRET,
      // Each event type you subscribed to on the platform; answer fast, do slow work later.
      on: { JOINED_COMMUNITY: (event) => console.log(\`new member: \${event.data.userId}\`) },
    }),`
        : ''
    }
  };
}

const built = new WeakMap<Env, ReturnType<typeof endpointsOf>>();
const endpoints = (env: Env) => {
  let found = built.get(env);
  if (!found) {
    found = endpointsOf(env);
    built.set(env, found);
  }
  return found;
};

const app = new Hono<AppEnv>();
// app.all: the platform's checks send other methods too, which get a 400 {message}.
app.all('/verify', (c, next) => endpoints(c.env).verify(c, next));${
      options.connect
        ? `
app.on(['GET', 'POST'], '/connect', (c, next) => endpoints(c.env).connect(c, next));
// Your login: once the member proved who they are, set the cookie of
// sessionCookie(memberId, SESSION_SECRET) (src/session.ts) and send them to returnTo.
app.get('/login', (c) => c.text('Your login goes here.'));`
        : ''
    }${options.webhooks ? "\napp.post('/webhooks', (c, next) => endpoints(c.env).webhooks(c, next));" : ''}
app.get('/', (c) => c.text("${options.name}: POST /verify answers the platform's claims."));

export default app;
`,
    'scripts/node-server.ts': `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import worker, { type Env, missingSecrets } from '../src/index.js';

/**
 * The Worker behind Node's HTTP server, with \`env\` as its bindings: for the tests, and for
 * \`npm run start:node\` where wrangler cannot run (it needs Node 22). Refuses missing secrets.
 */
export async function serveWorker(env: Partial<Env>, port: number, host = '127.0.0.1') {
  const missing = missingSecrets(env);
  if (missing.length > 0) throw new Error(\`set \${missing.join(', ')} in the environment\`);
  const server = createServer(getRequestListener((request) => worker.fetch(request, env as Env)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: \`http://\${host.includes(':') ? \`[\${host}]\` : host}:\${bound}\`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
`,
    'scripts/start-node.ts': `import { serveWorker } from './node-server.js';

// \`npm run start:node\`: the Worker on Node, bindings from the environment, on 127.0.0.1:8787.
try {
  const server = await serveWorker(process.env, Number(process.env.PORT) || 8787, process.env.HOST || '127.0.0.1');
  console.log(\`Verification endpoint: POST \${server.url}/verify\`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(\`[${options.name}] \${error instanceof Error ? error.message : String(error)}\`);
  process.exitCode = 1;
}
`,
    'test/start.ts': `import { serveWorker } from '../scripts/node-server.js';

/** The Worker on a free port of 127.0.0.1, with \`env\` as its bindings. */
export async function startApp(env: Record<string, string>) {
  const server = await serveWorker(env, 0);
  return { origin: server.url, close: server.close };
}
`,
  };
}
