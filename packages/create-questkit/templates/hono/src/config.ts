/** The app's settings, read from the environment by {@link readConfig}. */
export interface Config {
  /** QUEST_API_KEY: the task's key; several during a rotation. */
  apiKey: string[];
  /** HOST: default 127.0.0.1, so nothing outside this machine reaches it unless you say so. */
  host: string;
  /** PORT: default 4010; 0 picks a free one. */
  port: number;
  // @if connect
  /** The connect flow: CONNECT_SECRET, SESSION_SECRET and, behind a proxy, PUBLIC_URL. */
  connect: { secret: string; sessionSecret: string; publicUrl?: string };
  // @end
  // @if webhooks
  /** WEBHOOK_SECRET: the webhook's secret (whsec_...). */
  webhookSecret: string;
  // @end
}

/** A setting that is missing or unusable: the app refuses to start and says which. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads the settings from `env` (`process.env`). Every secret is required: there is no default
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
  // @if connect
  const connectSecret = required('CONNECT_SECRET');
  const sessionSecret = required('SESSION_SECRET');
  const publicUrl = env.PUBLIC_URL?.trim() || undefined;
  // @end
  const webhookSecret = required('WEBHOOK_SECRET'); // @webhooks
  if (missing.length > 0) {
    throw new ConfigError(`set ${missing.join(', ')} in the environment (see .env.example)`);
  }
  // @if connect
  if (sessionSecret && sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET needs 32 characters or more (openssl rand -hex 32)');
  }
  // @end
  const portText = env.PORT?.trim() || '4010';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new ConfigError(`PORT must be a port number, not "${portText}"`);
  }
  return {
    apiKey: keys,
    host: env.HOST?.trim() || '127.0.0.1',
    port,
    connect: { secret: connectSecret, sessionSecret, ...(publicUrl ? { publicUrl } : {}) }, // @connect
    webhookSecret, // @webhooks
  };
}
