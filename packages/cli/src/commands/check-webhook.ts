import {
  checkWebhookReceiver,
  formatWebhookHuman,
  formatWebhookJson,
  formatWebhookJunit,
  WEBHOOK_SECRET_ENV,
  type WebhookCheckOptions,
} from '@questkit/conformance';
import type { Command } from '../command.js';
import { UsageError } from '../errors.js';
import type { FlagSpec, ParsedFlags } from '../flags.js';
import { urlArgument } from '../url-argument.js';
import { JSON_FLAG, JUNIT_FLAG, NO_COLOR_FLAG } from './report-flags.js';
import { runReport } from './run-report.js';

/** The flags of `questkit check-webhook`, each with its environment twin. */
export const CHECK_WEBHOOK_FLAGS: readonly FlagSpec[] = [
  {
    name: 'secret',
    type: 'string',
    env: WEBHOOK_SECRET_ENV,
    placeholder: '<secret>',
    description: 'The webhook\'s secret, sent in each delivery\'s body as "secret" (required)',
  },
  JSON_FLAG,
  JUNIT_FLAG,
  {
    name: 'show-secrets',
    type: 'boolean',
    env: 'QUESTKIT_SHOW_SECRETS',
    description: 'Show the secret in the report instead of redacting it',
  },
  {
    name: 'verbose',
    type: 'boolean',
    env: 'QUESTKIT_VERBOSE',
    description: 'Show every detail of warnings, and the bodies sent',
  },
  NO_COLOR_FLAG,
];

const EPILOG = `Deliveries are made as the platform makes them: a POST of the event as JSON,
{id, type, data, time, secret} with community, user and quest nested under data, User-Agent
Svc-Webhook, and no signature header. One delivery of each of the nine event types, the first again (a retry carries the same event id), and one with a
wrong secret. A delivery succeeds only on exactly 200 within 5 s with at most 5,000 bytes of body;
anything else is retried for days.

The URL can also come from QUESTKIT_WEBHOOK_URL. The secret is never printed: curl lines read it
from $${WEBHOOK_SECRET_ENV}.
Events are really sent: use a receiver in a test mode, or one whose side effects you can undo.

Exit codes: 0 passed; 1 a check failed, or the run could not judge (no answer); 2 usage error.

Example:
  questkit check-webhook https://app.example/webhooks --secret "$${WEBHOOK_SECRET_ENV}"`;

/** Turns parsed flags into the check's options; throws a UsageError for what is missing. */
export function toWebhookOptions(
  parsed: ParsedFlags,
  env: Readonly<Record<string, string | undefined>> = {},
): WebhookCheckOptions {
  const { values, positionals } = parsed;
  const url = urlArgument(positionals, env, 'QUESTKIT_WEBHOOK_URL', 'the receiver URL');
  const secret = values.secret;
  if (typeof secret !== 'string') {
    throw new UsageError(`--secret is missing: the webhook's secret (or ${WEBHOOK_SECRET_ENV})`);
  }
  return { url, secret, ...(values['show-secrets'] === true ? { showSecrets: true } : {}) };
}

/** `questkit check-webhook`: delivers events to a webhook receiver as the platform does, and judges. */
export const checkWebhookCommand: Command = {
  name: 'check-webhook',
  summary: 'Check a webhook receiver the way the platform delivers, and tell why it would fail',
  usage: 'check-webhook <url> --secret <secret> [options]',
  description:
    "Delivers one event of every type to a webhook receiver, exactly as the platform does (the\nsecret in the JSON body, the event's fields under data, no signature header), the same delivery\nagain, and one with a wrong secret, and judges each answer by the platform's rule: exactly 200\nwithin 5 s, at most 5,000 bytes of body; the wrong secret must not get 200.",
  flags: CHECK_WEBHOOK_FLAGS,
  epilog: EPILOG,
  async run(parsed, io) {
    const options = toWebhookOptions(parsed, io.env);
    return runReport(
      {
        name: 'check-webhook',
        url: options.url,
        suite: 'questkit check-webhook',
        run: (extra) => checkWebhookReceiver({ ...options, ...extra }),
        human: formatWebhookHuman,
        json: formatWebhookJson,
        junit: formatWebhookJunit,
      },
      parsed,
      io,
    );
  },
};
