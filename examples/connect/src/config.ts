/** The mock platform's origins on this machine: the callback origins allowed in development. */
export const MOCK_PLATFORM_ORIGINS = ['http://127.0.0.1:4000', 'http://localhost:4000'];

/** The example's settings, read from the environment by {@link readConfig}. */
export interface Config {
  apiKey: string[];
  connectSecret: string[];
  /** The variables that were not set and got the mock platform's public demo value. */
  demoDefaults: string[];
  port: number;
  host: string;
  publicUrl: string | undefined;
  allowedCallbackOrigins: string[] | undefined;
  /** Redis for sessions, links and the login throttle, shared by several instances; else memory. */
  redisUrl: string | undefined;
  /** Proxies in front that append the client's address to `X-Forwarded-For` (0: none, the header is ignored). */
  trustedProxies: number;
  /** What to tell the operator at start-up (never a secret). */
  warnings: string[];
}

/** The API key of the mock platform's demo quests: public, a default for trying the example. */
export const DEMO_TASK_KEY = 'demo-task-key';
/** The connect secret of the mock platform's demo community: public, a default for trying it. */
export const DEMO_CONNECT_SECRET = 'demo-connect-secret-change-me';

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/**
 * Reads `QUEST_API_KEY` and `CONNECT_SECRET` (several separated by commas during a rotation; the
 * first secret signs), `PORT` (default 4010), `HOST` (default 127.0.0.1), `PUBLIC_URL` (the
 * origin the platform redirects to, behind a proxy) and `PLATFORM_ORIGINS` (origins the connect
 * callback may point to: the mock platform's in development; in production, with `NODE_ENV` set to
 * `production`, unset means any signed callback, with a warning) and `REDIS_URL` (sessions, links
 * and the login throttle on Redis, shared by every instance; unset: in memory) and `TRUST_PROXY`
 * (how many proxies in front append the client's address to `X-Forwarded-For`; default 0). With
 * `NODE_ENV=production` or a `HOST` beyond loopback, `QUEST_API_KEY` and `CONNECT_SECRET` must be
 * set, and not to the mock platform's public demo values. Throws a TypeError naming the variable
 * when a value is unusable.
 *
 * @example
 * const config = readConfig(process.env);
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const apiKey = list(env.QUEST_API_KEY);
  const connectSecret = list(env.CONNECT_SECRET);
  const portText = env.PORT?.trim() || '4010';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new TypeError(
      `[@questkit/example-connect] PORT must be a port number, not "${portText}"`,
    );
  }
  const origins = list(env.PLATFORM_ORIGINS);
  const production = env.NODE_ENV === 'production';
  const host = env.HOST?.trim() || '127.0.0.1';
  if (production || !isLoopback(host)) {
    requireOwnSecrets(apiKey, connectSecret, production ? 'NODE_ENV=production' : `HOST=${host}`);
  }
  const proxyText = env.TRUST_PROXY?.trim() || '0';
  if (!/^\d{1,2}$/.test(proxyText)) {
    throw new TypeError(
      `[@questkit/example-connect] TRUST_PROXY must be the number of proxies in front of the app (e.g. 1), not "${proxyText}"`,
    );
  }
  const warnings =
    origins.length === 0 && production
      ? [
          'PLATFORM_ORIGINS is not set: connect links may return to any origin the platform signed. Set it to the platform origin (e.g. https://platform.example).',
        ]
      : [];
  return {
    apiKey: apiKey.length > 0 ? apiKey : [DEMO_TASK_KEY],
    connectSecret: connectSecret.length > 0 ? connectSecret : [DEMO_CONNECT_SECRET],
    demoDefaults: [
      ...(apiKey.length > 0 ? [] : ['QUEST_API_KEY']),
      ...(connectSecret.length > 0 ? [] : ['CONNECT_SECRET']),
    ],
    port,
    host,
    publicUrl: env.PUBLIC_URL?.trim() || undefined,
    allowedCallbackOrigins:
      origins.length > 0 ? origins : production ? undefined : MOCK_PLATFORM_ORIGINS,
    redisUrl: env.REDIS_URL?.trim() || undefined,
    trustedProxies: Number(proxyText),
    warnings,
  };
}

/**
 * In production or reachable from the network, the mock platform's public demo values would let
 * anyone sign a connect redirect or call the endpoint: refused, naming the variables (never a value).
 */
function requireOwnSecrets(apiKey: string[], connectSecret: string[], why: string): void {
  const missing = [
    ...(apiKey.length === 0 ? ['QUEST_API_KEY'] : []),
    ...(connectSecret.length === 0 ? ['CONNECT_SECRET'] : []),
  ];
  if (missing.length > 0) {
    throw new TypeError(
      `[@questkit/example-connect] ${missing.join(' and ')} must be set with ${why}: the public demo values open the app to anyone. Set them to your community's task key and connect secret.`,
    );
  }
  const demo = [
    ...(apiKey.includes(DEMO_TASK_KEY) ? ['QUEST_API_KEY'] : []),
    ...(connectSecret.includes(DEMO_CONNECT_SECRET) ? ['CONNECT_SECRET'] : []),
  ];
  if (demo.length > 0) {
    throw new TypeError(
      `[@questkit/example-connect] ${demo.join(' and ')} hold the mock platform's public demo value, refused with ${why}. Set them to your community's task key and connect secret.`,
    );
  }
}

/** A loopback name or address: nothing outside this machine reaches it. */
function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
