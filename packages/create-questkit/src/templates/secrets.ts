import type { ProjectOptions } from '../options.js';

/** One environment variable the project reads. */
export interface EnvVariable {
  name: string;
  /** What it is and where to find it, for `.env.example` and the README. */
  about: string;
  /** Refused at start-up when missing. */
  required: boolean;
}

/** The secrets and settings of a project, in the order `.env.example` lists them. */
export function envVariables(options: ProjectOptions): EnvVariable[] {
  const variables: EnvVariable[] = [
    {
      name: 'QUEST_API_KEY',
      about:
        'The API key of the quest task (the platform sends it in X-Api-Key). Several, comma-separated, during a rotation.',
      required: true,
    },
  ];
  if (options.connect) {
    variables.push(
      {
        name: 'CONNECT_SECRET',
        about: "The community's connect secret, from the platform's integration settings.",
        required: true,
      },
      {
        name: 'SESSION_SECRET',
        about: "Signs this app's session cookie: 32 characters or more (openssl rand -hex 32).",
        required: true,
      },
      {
        name: 'PUBLIC_URL',
        about:
          options.framework === 'nextjs'
            ? 'The public origin the platform sends members to (https://community.example): Next.js reports a host of its own.'
            : 'The public origin the platform sends members to (https://community.example), when a proxy sits in front.',
        required: false,
      },
    );
  }
  if (options.webhooks) {
    variables.push({
      name: 'WEBHOOK_SECRET',
      about: "The webhook's secret (whsec_...), from the platform's webhook list.",
      required: true,
    });
  }
  return variables;
}

/** `.env.example`: every variable, none with a value that would work in production. */
export function envExample(options: ProjectOptions): string {
  const lines = [
    '# Copy to .env (never commit .env). Every secret is required: the app refuses to start without one.',
  ];
  for (const variable of envVariables(options)) {
    lines.push(
      '',
      `# ${variable.required ? '' : '(optional) '}${variable.about}`,
      `${variable.name}=`,
    );
  }
  if (
    options.framework === 'express' ||
    options.framework === 'fastify' ||
    options.framework === 'hono'
  ) {
    lines.push(
      '',
      '# Where to listen: loopback unless you mean otherwise (0.0.0.0 in a container).',
      '# HOST=127.0.0.1',
      '# PORT=4010',
    );
  }
  return `${lines.join('\n')}\n`;
}
