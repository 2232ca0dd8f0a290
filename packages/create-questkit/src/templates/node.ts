import type { ProjectOptions } from '../options.js';

type NodeFramework = 'express' | 'fastify' | 'hono';

/** `src/config.ts`: the settings from the environment; a missing secret refuses the start. */
export function configFile(options: ProjectOptions): string {
  const fields = [
    "  /** QUEST_API_KEY: the task's key; several during a rotation. */",
    '  apiKey: string[];',
    '  /** HOST: default 127.0.0.1, so nothing outside this machine reaches it unless you say so. */',
    '  host: string;',
    '  /** PORT: default 4010; 0 picks a free one. */',
    '  port: number;',
  ];
  const reads: string[] = [];
  const values = ['    apiKey: keys,', "    host: env.HOST?.trim() || '127.0.0.1',", '    port,'];
  if (options.connect) {
    fields.push(
      '  /** The connect flow: CONNECT_SECRET, SESSION_SECRET and, behind a proxy, PUBLIC_URL. */',
      '  connect: { secret: string; sessionSecret: string; publicUrl?: string };',
    );
    reads.push(
      "  const connectSecret = required('CONNECT_SECRET');",
      "  const sessionSecret = required('SESSION_SECRET');",
      '  const publicUrl = env.PUBLIC_URL?.trim() || undefined;',
    );
    values.push(
      '    connect: { secret: connectSecret, sessionSecret, ...(publicUrl ? { publicUrl } : {}) },',
    );
  }
  if (options.webhooks) {
    fields.push(
      "  /** WEBHOOK_SECRET: the webhook's secret (whsec_...). */",
      '  webhookSecret: string;',
    );
    reads.push("  const webhookSecret = required('WEBHOOK_SECRET');");
    values.push('    webhookSecret,');
  }
  const sessionCheck = options.connect
    ? `
  if (sessionSecret && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET needs 32 characters or more (openssl rand -hex 32)');
  }`
    : '';
  return `/** The app's settings, read from the environment by {@link readConfig}. */
export interface Config {
${fields.join('\n')}
}

/** A setting that is missing or unusable: the app refuses to start and says which. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads the settings from \`env\` (\`process.env\`). Every secret is required: there is no default
 * key, so a deployment without its secrets never starts.
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const missing: string[] = [];
  const required = (name: string) => {
    const value = env[name]?.trim();
    if (!value) missing.push(name);
    return value ?? '';
  };
  const keys = required('QUEST_API_KEY')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
${reads.join('\n')}
  if (missing.length > 0) {
    throw new ConfigError(\`set \${missing.join(', ')} in the environment (see .env.example)\`);
  }${sessionCheck}
  const portText = env.PORT?.trim() || '4010';
  const port = Number(portText);
  if (!/^\\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(\`PORT must be a port number, not "\${portText}"\`);
  }
  return {
${values.join('\n')}
  };
}
`;
}

const LOGIN_TEXT =
  'Your login goes here: once the member proved who they are, send sessionCookie(memberId, SESSION_SECRET) (src/session.ts) and redirect to returnTo.';

/** `src/app.ts` for one framework. */
export function appFile(framework: NodeFramework, options: ProjectOptions): string {
  const adapter = `@questkit/${framework}`;
  const imports = ['verificationEndpoint'];
  if (options.connect) imports.unshift('connectEndpoint');
  if (options.webhooks) imports.push('webhookEndpoint');
  const head = [
    ...(framework === 'fastify' ? ["import type { VerifyHandler } from '@questkit/core';"] : []),
    `import { ${imports.join(', ')} } from '${adapter}';`,
    framework === 'express'
      ? "import express, { type Express } from 'express';"
      : framework === 'fastify'
        ? "import Fastify, { type FastifyInstance } from 'fastify';"
        : "import { Hono } from 'hono';",
    "import type { Config } from './config.js';",
    "import { REQUIRES, verify } from './quest.js';",
  ];
  if (options.connect) head.push("import { sessionMember } from './session.js';");
  const connectOptions = (identifier: string) => `    secret: config.connect.secret,
    ...(config.connect.publicUrl ? { publicUrl: config.connect.publicUrl } : {}),
    appName: '${options.name}',
    // The member of a session this app signed (src/session.ts): a cookie a visitor wrote names nobody.
    getIdentifier: ${identifier},
    loginUrl: '/login',`;
  const webhookOptions = `    secret: config.webhookSecret,
    // Each event type you subscribed to on the platform; answer fast, do slow work later.
    on: { JOINED_COMMUNITY: (event) => console.log(\`new member: \${event.data.userId}\`) },`;
  const home = `${options.name}: POST /verify answers the platform's claims.`;
  if (framework === 'express') {
    return `${head.join('\n')}

/** The app: \`POST /verify\` answers the platform's claims${options.connect ? ', `/connect` links accounts' : ''}${options.webhooks ? ', `POST /webhooks` receives deliveries' : ''}. */
export function createApp(config: Config): Express {
  const app = express();
  app.disable('x-powered-by');
  // Before any body parser: the endpoints read the body themselves, after the key check.
  // app.all: the platform's checks send other methods too, which get a 400 {message}.
  app.all('/verify', verificationEndpoint({ apiKey: config.apiKey, requires: REQUIRES, verify }));
${
  options.connect
    ? `  app.all(
    '/connect',
    connectEndpoint({
${connectOptions("(req) => sessionMember(req.get('cookie'), config.connect.sessionSecret)").replace(/^ {4}/gm, '      ')}
    }),
  );
  app.get('/login', (_req, res) => {
    res.type('text/plain').send('${LOGIN_TEXT}');
  });
`
    : ''
}${
  options.webhooks
    ? `  app.post(
    '/webhooks',
    webhookEndpoint({
${webhookOptions.replace(/^ {4}/gm, '      ')}
    }),
  );
`
    : ''
}  // The rest of your app, with the body parser most Express apps have.
  app.use(express.json());
  app.get('/', (_req, res) => {
    res.type('text/plain').send("${home}");
  });
  return app;
}
`;
  }
  if (framework === 'fastify') {
    return `${head.join('\n')}

/** The app: \`POST /verify\` answers the platform's claims${options.connect ? ', `/connect` links accounts' : ''}${options.webhooks ? ', `POST /webhooks` receives deliveries' : ''}. */
export async function createApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify();
  // The plugin answers every method on its path: the platform's checks send others too.
  await app.register(verificationEndpoint, {
    path: '/verify',
    apiKey: config.apiKey,
    requires: REQUIRES,
    // Fastify's register cannot carry REQUIRES into verify's type; the plugin checks them first.
    verify: verify as VerifyHandler,
  });
${
  options.connect
    ? `  await app.register(connectEndpoint, {
    path: '/connect',
${connectOptions('(request) => sessionMember(request.headers.cookie, config.connect.sessionSecret)').replace(/^ {4}/gm, '    ')}
  });
  app.get('/login', async (_request, reply) =>
    reply.type('text/plain').send('${LOGIN_TEXT}'),
  );
`
    : ''
}${
  options.webhooks
    ? `  await app.register(webhookEndpoint, {
    path: '/webhooks',
${webhookOptions}
  });
`
    : ''
}  app.get('/', async (_request, reply) =>
    reply.type('text/plain').send("${home}"),
  );
  return app;
}
`;
  }
  return `${head.join('\n')}

/** The app: \`POST /verify\` answers the platform's claims${options.connect ? ', `/connect` links accounts' : ''}${options.webhooks ? ', `POST /webhooks` receives deliveries' : ''}. */
export function createApp(config: Config): Hono {
  const app = new Hono();
  // app.all: the platform's checks send other methods too, which get a 400 {message}.
  app.all('/verify', verificationEndpoint({ apiKey: config.apiKey, requires: REQUIRES, verify }));
${
  options.connect
    ? `  app.on(
    ['GET', 'POST'],
    '/connect',
    connectEndpoint({
${connectOptions("(c) => sessionMember(c.req.header('cookie'), config.connect.sessionSecret)").replace(/^ {4}/gm, '      ')}
    }),
  );
  app.get('/login', (c) => c.text('${LOGIN_TEXT}'));
`
    : ''
}${
  options.webhooks
    ? `  app.post(
    '/webhooks',
    webhookEndpoint({
${webhookOptions.replace(/^ {4}/gm, '      ')}
    }),
  );
`
    : ''
}  app.get('/', (c) => c.text("${home}"));
  return app;
}
`;
}

/** `src/server.ts`: the app on a real port. */
export function serverFile(framework: NodeFramework): string {
  const doc = `/** A running app. */
export interface RunningServer {
  /** \`http://host:port\`, with the port actually bound. */
  readonly url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const urlOf = (host: string, port: number) =>
  \`http://\${host.includes(':') ? \`[\${host}]\` : host}:\${port}\`;
`;
  if (framework === 'fastify') {
    return `import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import type { Config } from './config.js';

${doc}
/** Starts the app on \`config.host\` and \`config.port\`. */
export async function startServer(config: Config): Promise<RunningServer> {
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  return { url: urlOf(config.host, port), close: () => app.close() };
}
`;
  }
  return `import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
${framework === 'hono' ? "import { getRequestListener } from '@hono/node-server';\n" : ''}import { createApp } from './app.js';
import type { Config } from './config.js';

${doc}
/** Starts the app on \`config.host\` and \`config.port\`. */
export async function startServer(config: Config): Promise<RunningServer> {
  const server = createServer(${framework === 'hono' ? 'getRequestListener(createApp(config).fetch)' : 'createApp(config)'});
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: urlOf(config.host, port),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
`;
}

/** \`src/main.ts\`: \`npm start\` and \`npm run dev\`. */
export function mainFile(options: ProjectOptions): string {
  const lines = [`  console.log(\`Verification endpoint: POST \${server.url}/verify\`);`];
  if (options.connect) {
    lines.push(
      `  console.log(\`Connect redirect URL: \${config.connect.publicUrl ?? server.url}/connect\`);`,
    );
  }
  if (options.webhooks) lines.push(`  console.log(\`Webhook URL: POST \${server.url}/webhooks\`);`);
  return `import { readConfig } from './config.js';
import { startServer } from './server.js';

// Settings from the environment; a missing secret stops here with one line and status 1.
try {
  const config = readConfig(process.env);
  const server = await startServer(config);
${lines.join('\n')}
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(\`[${options.name}] \${error instanceof Error ? error.message : String(error)}\`);
  process.exitCode = 1;
}
`;
}

/** \`test/start.ts\`: the app as the tests start it, on a free loopback port. */
export const NODE_START_FILE = `import { readConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

/** Starts the app with \`env\` as its environment, on a free port of 127.0.0.1. */
export async function startApp(env: Record<string, string>) {
  const server = await startServer(readConfig({ ...env, PORT: '0' }));
  return { origin: server.url, close: () => server.close() };
}
`;
