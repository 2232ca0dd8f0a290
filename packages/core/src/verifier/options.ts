import type { DoorLimits } from '../front-door/index.js';
import { readMessages } from '../messages.js';
import { readFunctionOption, readHooks, readNumberOption } from '../options.js';
import type { VerifierMessages } from '../reasons.js';
import {
  IDENTIFICATION_METHODS,
  type IdentificationMethod,
  PLATFORM_TIMEOUT_MS,
} from '../schemas/verification-constants.js';
import { matchSecret, readSecrets } from '../secrets.js';
import type { ErrorInfo, ResultEvent, VerifierOptions, VerifyHandler } from './types.js';

/** Default handler budget: well under the platform's 10 s, leaving room for the network. */
export const DEFAULT_TIMEOUT_MS = 8_000;
/** Default body limit. A claim is a few hundred bytes; this leaves room for long account names. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Where a claim goes: the accounts it must carry and its handler. */
export interface Route {
  requires: ReadonlySet<IdentificationMethod>;
  verify: VerifyHandler<IdentificationMethod>;
}

/** A verifier's options, checked once at start-up. */
export interface VerifierConfig {
  /**
   * Whether a received `X-Api-Key` is one of the keys, compared in constant time; `undefined`
   * when the key check is off (`apiKey: false`).
   */
  acceptsKey: ((received: string) => boolean) | undefined;
  /** The time from a request's arrival to its answer, and the body's size limit. */
  limits: DoorLimits;
  /** The route of a claim by its questId; `fallback` for quests not listed (the `verify` option). */
  routes: ReadonlyMap<string, Route>;
  fallback: Route | undefined;
  messages: VerifierMessages;
  /** Tells `onError`; a hook that throws never changes the answer. */
  report: (error: unknown, info: ErrorInfo) => void;
  /** Tells `onResult`; undefined without one. A hook that throws is reported, never changes the answer. */
  notify: ((event: ResultEvent) => void) | undefined;
}

/** Checks every option; a misconfiguration throws here, at start-up, never on a request. */
export function readVerifierOptions(
  options: VerifierOptions<IdentificationMethod>,
): VerifierConfig {
  const requires = readRequires('requires', options.requires);
  const routes = new Map<string, Route>();
  for (const [questId, entry] of Object.entries(options.quests ?? {})) {
    routes.set(readQuestId(questId), readRoute(questId, entry, requires));
  }
  const apiKey = readApiKey(options.apiKey);
  const verify = readFunctionOption('verify', options.verify);
  if (routes.size === 0 && !verify) {
    throw new TypeError('[@questkit/core] verify or quests is required');
  }
  const keys = apiKey === false ? undefined : readSecrets(apiKey, '[@questkit/core] apiKey');
  return {
    acceptsKey: keys && ((received) => matchSecret(received, keys)),
    limits: {
      timeoutMs: readNumberOption('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, {
        min: 1,
        max: PLATFORM_TIMEOUT_MS - 1,
      }),
      maxBytes: readNumberOption('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, {
        min: 1,
        max: 2 ** 30,
        integer: true,
      }),
    },
    routes,
    fallback: verify && { requires, verify },
    ...readHooks<ErrorInfo, ResultEvent>(options.onError ?? defaultOnError, options.onResult),
    messages: readMessages(options.messages),
  };
}

// A key built from an unset variable (`[process.env.QUEST_ID]: ...`) becomes one of these: the
// quest would never be reached, and every claim of the real quest would go unanswered.
const UNSET_KEYS = new Set(['', 'undefined', 'null']);

function readQuestId(questId: string): string {
  if (UNSET_KEYS.has(questId.trim())) {
    throw new TypeError(
      `[@questkit/core] quests: the key "${questId}" is not a quest id (an unset environment variable?)`,
    );
  }
  return questId;
}

function readRoute(
  questId: string,
  entry: unknown,
  requires: ReadonlySet<IdentificationMethod>,
): Route {
  const route = typeof entry === 'function' ? { verify: entry } : entry;
  const { verify, requires: own } = (route ?? {}) as { verify?: unknown; requires?: unknown };
  if (typeof verify !== 'function') {
    throw new TypeError(
      `[@questkit/core] quests["${questId}"] must be a function or { verify, requires? }`,
    );
  }
  const routeRequires = readRequires(`quests["${questId}"].requires`, own as readonly string[]);
  return {
    // The endpoint's `requires` hold for every quest, on top of the quest's own.
    requires: new Set([...requires, ...routeRequires]),
    verify: verify as VerifyHandler<IdentificationMethod>,
  };
}

function readApiKey(apiKey: unknown): string | readonly string[] | false {
  if (apiKey === false) return false;
  if (
    apiKey === undefined ||
    apiKey === null ||
    apiKey === '' ||
    (Array.isArray(apiKey) && apiKey.length === 0)
  ) {
    // Most often an environment variable that is not set: say so in the terms the user typed.
    throw new TypeError(
      `[@questkit/core] apiKey is ${Array.isArray(apiKey) ? 'an empty list' : apiKey === '' ? 'empty' : String(apiKey)}: is QUEST_API_KEY (or the variable you read it from) set? Start with QUEST_API_KEY=<the task's key>, or pass a list of keys, or false to run without one`,
    );
  }
  return apiKey as string | readonly string[];
}

function readRequires(
  name: string,
  value: readonly string[] | undefined,
): ReadonlySet<IdentificationMethod> {
  if (value !== undefined && !Array.isArray(value)) {
    throw new TypeError(`[@questkit/core] ${name} must be a list of identification methods`);
  }
  for (const method of value ?? []) {
    if (!(IDENTIFICATION_METHODS as readonly string[]).includes(method)) {
      throw new TypeError(
        `[@questkit/core] ${name}: unknown identification method "${method}" (use ${IDENTIFICATION_METHODS.join(', ')})`,
      );
    }
  }
  return new Set(value as readonly IdentificationMethod[] | undefined);
}

function defaultOnError(error: unknown, info: ErrorInfo): void {
  console.error(
    `[@questkit/core] ${info.reason}${info.requestId ? ` (requestId ${info.requestId})` : ''}:`,
    error,
  );
}
