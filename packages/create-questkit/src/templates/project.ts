import type { ProjectOptions } from '../options.js';
import { versions } from '../versions.js';
import { envVariables } from './secrets.js';
import { paths } from './tests.js';

const isNode = (options: ProjectOptions) =>
  options.framework === 'express' ||
  options.framework === 'fastify' ||
  options.framework === 'hono';

/** The port `npm start` listens on by default. */
export function defaultPort(options: ProjectOptions): number {
  return options.framework === 'nextjs' ? 3000 : options.framework === 'workers' ? 8787 : 4010;
}

/** `package.json`: the framework's usual scripts, and the @questkit versions released with the generator. */
export function packageJson(options: ProjectOptions): string {
  const v = versions();
  const pick = (names: string[]) =>
    Object.fromEntries(
      names.sort().map((name) => {
        const version = v[name];
        if (!version) throw new Error(`no version for ${name}`);
        return [name, version];
      }),
    );
  const deps = ['@questkit/core'];
  const dev = ['@questkit/conformance', 'questkit', 'typescript', 'vitest', '@types/node'];
  if (options.connect || options.webhooks) dev.push('@questkit/mock-platform');
  let scripts: Record<string, string>;
  switch (options.framework) {
    case 'express':
    case 'fastify':
    case 'hono':
      deps.push(`@questkit/${options.framework}`, options.framework);
      if (options.framework === 'hono') deps.push('@hono/node-server');
      if (options.framework === 'express') dev.push('@types/express');
      dev.push('tsx');
      scripts = {
        dev: 'tsx watch --env-file=.env src/main.ts',
        build: 'tsc -p tsconfig.build.json',
        start: 'node dist/main.js',
        test: 'vitest run',
        typecheck: 'tsc --noEmit',
      };
      break;
    case 'nextjs':
      deps.push('next', 'react', 'react-dom');
      dev.push('@types/react');
      scripts = {
        dev: 'node check-env.mjs && next dev -H 127.0.0.1',
        build: 'next build',
        start: 'node check-env.mjs && next start -H 127.0.0.1',
        test: 'vitest run',
        typecheck: 'tsc --noEmit',
      };
      break;
    case 'workers':
      deps.push('@questkit/hono', 'hono');
      dev.push('wrangler', '@hono/node-server', 'tsx');
      scripts = {
        dev: 'wrangler dev',
        start: 'wrangler dev',
        deploy: 'wrangler deploy',
        'start:node': 'tsx scripts/start-node.ts',
        test: 'vitest run',
        typecheck: 'tsc --noEmit && tsc --noEmit -p tsconfig.test.json',
      };
      break;
  }
  const manifest = {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.12' },
    scripts,
    dependencies: pick(deps),
    devDependencies: pick(dev),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** `vitest.config.ts`: room for a real HTTP battery (and, in Next.js, one build before the tests). */
export function vitestConfig(options: ProjectOptions): string {
  const next = options.framework === 'nextjs';
  return `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The conformance battery sends about 60 claims over real HTTP${next ? '; the app is started with next start' : ''}.
    testTimeout: 60_000,
    hookTimeout: ${next ? '120_000' : '30_000'},${next ? "\n    // One `next build` before every test file.\n    globalSetup: ['test/build.ts']," : ''}
  },
});
`;
}

/** `.gitignore`. */
export function gitignore(options: ProjectOptions): string {
  const lines = ['node_modules', '.env', '.env.local'];
  if (isNode(options)) lines.push('dist');
  if (options.framework === 'nextjs') lines.push('.next', 'next-env.d.ts');
  if (options.framework === 'workers') lines.push('.wrangler', '.dev.vars');
  return `${lines.join('\n')}\n`;
}

/** `.github/workflows/ci.yml`: the tests, the type check, and `questkit check` against the started app. */
export function ciWorkflow(options: ProjectOptions): string {
  const p = paths(options);
  const port = defaultPort(options);
  const env: string[] = ['QUEST_API_KEY: ci-check-key'];
  if (options.connect) {
    env.push(
      'CONNECT_SECRET: ci-connect-secret',
      'SESSION_SECRET: ci-session-secret-0123456789abcdef',
    );
  }
  if (options.webhooks) env.push('WEBHOOK_SECRET: whsec_ci');
  const build = options.framework === 'workers' ? [] : ['      - run: npm run build'];
  const start = options.framework === 'workers' ? 'npm run start:node' : 'npm start';
  const connectFlags = options.connect
    ? ` --connect-url http://127.0.0.1:${port}${p.connect} --secret "$CONNECT_SECRET"`
    : '';
  const identifications =
    options.requires.length > 0 ? ` --identifications ${options.requires.join(',')}` : '';
  return `# The tests, the type check, then the app started as it ships and judged by \`questkit check\`
# the way the platform will judge it. The keys below are throwaway values for this local run only.
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    env:
${env.map((line) => `      ${line}`).join('\n')}
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
      - run: npm install --no-audit --no-fund
      - run: npm run typecheck
      - run: npm test
${build.join('\n')}${build.length > 0 ? '\n' : ''}      - name: questkit check
        run: |
          ${start} & app=$!
          for i in $(seq 1 60); do curl -s -o /dev/null http://127.0.0.1:${port}/ && break; sleep 1; done
          status=0
          npx questkit check http://127.0.0.1:${port}${p.verify} --api-key "$QUEST_API_KEY"${identifications}${connectFlags} --junit conformance.xml || status=$?
          kill $app
          exit $status
      - uses: actions/upload-artifact@v4
        if: always()
        with:
          name: conformance
          path: conformance.xml
`;
}

/** `README.md`: run, test, configure the task on the platform, deploy. */
export function readme(options: ProjectOptions): string {
  const p = paths(options);
  const port = defaultPort(options);
  const local = `http://127.0.0.1:${port}`;
  const variables = envVariables(options);
  const run =
    options.framework === 'workers'
      ? `npm run dev          # wrangler dev (Node 22 or later): secrets from .env\nnpm run start:node   # the same Worker on Node's HTTP server (any Node 20+), secrets from the environment`
      : options.framework === 'nextjs'
        ? 'npm run dev          # next dev on 127.0.0.1:3000 (Next.js reads .env itself)\nnpm run build && npm start'
        : 'npm run dev          # tsx watch, reads .env\nnpm run build && npm start   # QUEST_API_KEY etc. from the environment';
  const methods =
    options.requires.length > 0
      ? `tick **${options.requires.join('**, **')}**: the same methods as \`REQUIRES\` in \`${options.framework === 'nextjs' ? 'lib' : 'src'}/quest.ts\`. A claim without one of them is answered 400 asking the member to link it, before your code runs.`
      : `tick none: \`REQUIRES\` in \`${options.framework === 'nextjs' ? 'lib' : 'src'}/quest.ts\` is empty, and \`verify\` decides by the member's platform id (\`claim.userId\`). Tick methods there and here together when you need the member's accounts.`;
  const deploy =
    options.framework === 'workers'
      ? `Set each secret, then deploy:

\`\`\`sh
${variables
  .filter((variable) => variable.required)
  .map((variable) => `npx wrangler secret put ${variable.name}`)
  .join('\n')}
npm run deploy
\`\`\`

The endpoint URL is then \`https://<name>.<your-subdomain>.workers.dev${p.verify}\`.`
      : options.framework === 'nextjs'
        ? `On Vercel (or any Next.js host): set ${variables.map((variable) => `\`${variable.name}\``).join(', ')} in the project's environment variables${options.connect ? ' (`PUBLIC_URL`: your production origin)' : ''}, and keep the function's maximum duration above 8 s (the verifier's deadline, under the platform's 10 s). The endpoint URL is \`https://<your-domain>${p.verify}\`. On your own server: \`npm run build\`, then \`npm start\` behind your reverse proxy (it listens on 127.0.0.1; \`PORT\` sets the port).`
        : `\`npm run build\`, then \`npm start\` on the server with the variables above in its environment. It listens on 127.0.0.1, port 4010: put it behind your reverse proxy (TLS), or set \`HOST=0.0.0.0\` in a container whose port you publish. The endpoint URL is \`https://<your-domain>${p.verify}\`.${options.connect ? ' Behind a proxy, set `PUBLIC_URL` to the public origin: the platform signs the public URL of the connect redirect.' : ''}`;
  return `# ${options.name}

A community's quest verification endpoint, written with [questkit](https://github.com/questkit/questkit)
and ${{ express: 'Express', fastify: 'Fastify', hono: 'Hono', nextjs: 'Next.js (App Router)', workers: 'Cloudflare Workers (Hono)' }[options.framework]}. The platform POSTs a claim to \`${p.verify}\`; \`verify\` in
\`${options.framework === 'nextjs' ? 'lib' : 'src'}/quest.ts\` answers it with \`ok(message)\` (the task is done) or \`fail(message)\` (the member is told what is missing). questkit checks the \`X-Api-Key\`, the claim's shape, the deadline and the answer's format.${options.connect ? `\n\n\`${p.connect}\` runs the identity-connect flow: the platform sends a member there with a signed link, the member confirms on this app's page, and later claims carry your id of the member as \`accounts["svc-connect"]\`. Your login sets the session cookie (\`session.ts\`).` : ''}${options.webhooks ? `\n\n\`${p.webhooks}\` receives the platform's webhook deliveries (checked against \`WEBHOOK_SECRET\`).` : ''}

## Run it

\`\`\`sh
npm install
cp .env.example .env   # then fill it in: the app refuses to start without its secrets
${run}
\`\`\`

| Variable | What it is |
| --- | --- |
${variables.map((variable) => `| \`${variable.name}\` | ${variable.required ? '' : '(optional) '}${variable.about} |`).join('\n')}

## Fill in \`verify\`

Open \`${options.framework === 'nextjs' ? 'lib' : 'src'}/quest.ts\` and replace the sample lookup with yours: your database, your mailing list, an
API. Keep messages short and say what to do; pass \`signal\` to \`fetch\` and database calls.

## Test it

\`\`\`sh
npm test            # starts the app and judges it with questkit's conformance battery${options.connect || options.webhooks ? ', and drives it with the mock platform' : ''}
npm run typecheck
npx questkit check ${local}${p.verify} --api-key "$QUEST_API_KEY"   # against the running app
\`\`\`

\`.github/workflows/ci.yml\` runs the same on every push.

## Configure the task on the platform

In your community's admin, add an **API** task to the quest:

1. **Endpoint URL**: your deployment's \`${p.verify}\` (\`https://<your-domain>${p.verify}\`). The platform calls it from the internet: \`${local}\` is for your machine only.
2. **API key**: a long random value (\`openssl rand -hex 32\`); set the same value as \`QUEST_API_KEY\` in the deployment. To rotate it, set both keys comma-separated, change the task, then drop the old one.
3. **Identification methods**: ${methods}${
    options.connect
      ? `
4. **Connect redirect URL**: \`https://<your-domain>${p.connect}\`, and copy the community's **connect secret** from the integration settings into \`CONNECT_SECRET\`. Tick **svc-connect** in the identification methods for quests that need the linked account.`
      : ''
  }${
    options.webhooks
      ? `
${options.connect ? '5' : '4'}. **Webhooks**: add one with the URI \`https://<your-domain>${p.webhooks}\` and the events you handle, then copy its secret (\`whsec_...\`) from the webhook list into \`WEBHOOK_SECRET\`.`
      : ''
  }

When you save the quest, the platform checks the endpoint at once: a 400 for an unknown member passes; a timeout, a 404 or a wrong format fails.

## Deploy

${deploy}
`;
}
