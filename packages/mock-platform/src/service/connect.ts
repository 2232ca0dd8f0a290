import {
  type CallbackParam,
  createConnectRedirect,
  type SignedUrlFailure,
  verifySignedUrl,
} from '@questkit/core';
import type { MockContext } from '../context.js';
import { type ApiFailure, apiError } from '../errors.js';
import { randomHex } from '../ids.js';
import { findMember, memberNotFound } from '../members.js';
import type { ConnectionRecord, QuestTaskRecord } from '../store/records.js';

// The service side of identity connect. The callback the mock sends carries the member, the
// community and the redirect URL as query parameters, signed by the community with the whole
// callback URL, plus a one-time nonce: the protocol itself has no nonce and no expiry, so a
// captured callback could otherwise be replayed to restore a removed association. The nonce
// expires after 10 minutes on the mock's clock, is tied to the member who started the flow, and
// is spent by the first callback that carries it.

/** Path of the callback route, under the mock's base URL. */
export const CONNECT_CALLBACK_PATH = '/__mock/connect/callback';

/** What starts a connect flow. */
export interface ConnectStartInput {
  subdomain: string;
  questId: string;
  userId: string;
  /** The task whose redirect URL to use; default the quest's first API task with one. */
  taskId?: string;
  /** The name of the callback parameter; default the platform's `connectCallbackParam`. */
  callbackParam?: CallbackParam;
}

/** Why a callback was refused. */
export type ConnectCallbackFailure =
  | SignedUrlFailure
  | 'unknown_community'
  | 'missing_parameter'
  | 'unknown_member'
  | 'used_nonce'
  | 'expired_nonce'
  | 'wrong_member'
  | 'not_a_callback';

/** How long a started flow may take to come back, on the mock's clock. */
export const CONNECT_NONCE_TTL_MS = 10 * 60 * 1000;

/** The outcome of a callback. */
export type ConnectCallbackResult =
  | { ok: true; connection: ConnectionRecord }
  | { ok: false; reason: ConnectCallbackFailure; message: string };

/** The connect flow of the service. */
export interface ConnectService {
  /** The signed redirect to the task's redirect URL, or why there is none (404, 409). */
  start(input: ConnectStartInput): Promise<{ location: string } | ApiFailure>;
  /**
   * Verifies a callback and stores the association. Only the query of `requestUrl` is read: the
   * community signed the callback URL the mock gave it, on the mock's public URL.
   */
  callback(requestUrl: string): Promise<ConnectCallbackResult>;
  /** The public URL of the callback route: the configured base URL, else where the mock listens. */
  callbackBase(): string;
  /** Tells an unconfigured service where the mock listens (the server calls it once bound). */
  listeningOn(url: string): void;
}

const FAILURE_MESSAGES: Record<ConnectCallbackFailure, string> = {
  invalid_url: 'The callback address is not valid.',
  missing_signature: 'The callback is not signed.',
  duplicate_signature: 'The callback carries two signatures.',
  malformed_signature: 'The callback signature is not 64 hex digits.',
  bad_signature: 'The callback signature does not match the community secret.',
  unknown_community: 'The callback names no known community.',
  missing_parameter: 'The callback lacks userId, redirectUrl, identifier or nonce.',
  unknown_member: 'The callback names no member of the community.',
  used_nonce: 'This callback was already used, or was never issued. Nothing was changed.',
  expired_nonce: 'This callback has expired (after 10 minutes). Nothing was changed.',
  wrong_member: 'This callback belongs to another member. Nothing was changed.',
  not_a_callback: 'This address is a connect redirect, not a callback. Nothing was changed.',
};

// Longest identifier stored: a community's user id, not a document.
const MAX_IDENTIFIER_LENGTH = 1024;

/** The base URL option, checked at start-up: an absolute http(s) URL, without a trailing slash. */
export function normalizeBaseUrl(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new TypeError(
      '[@questkit/mock-platform] baseUrl must be an absolute http(s) URL such as https://mock.example',
    );
  }
  return url.href.replace(/\/+$/, '');
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 && values[0] !== '' ? values[0] : undefined;
}

/** Whether `redirectUrl` is the callback route itself (as URLs compare: case, default port). */
function pointsAtCallback(redirectUrl: string, callback: string): boolean {
  try {
    const target = new URL(redirectUrl);
    const own = new URL(callback);
    return target.origin === own.origin && target.pathname === own.pathname;
  } catch {
    return false;
  }
}

function connectTask(tasks: readonly QuestTaskRecord[], taskId: string | undefined) {
  const api = tasks.filter((task) => task.type === 'api' && task.settings.redirectUrl);
  if (taskId !== undefined) return api.find((task) => task.id === taskId);
  return api.find((task) => task.settings.identifications?.includes('svc-connect')) ?? api[0];
}

/**
 * The service side of the connect flow.
 *
 * @example
 * const connect = createConnectService(context, { baseUrl: 'https://mock.example' });
 * const start = await connect.start({ subdomain: 'demo', questId, userId });
 */
export function createConnectService(
  context: MockContext,
  options: { baseUrl?: string; callbackParam?: CallbackParam },
): ConnectService {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const defaultParam = options.callbackParam ?? 'callback';
  if (defaultParam !== 'callback' && defaultParam !== 'callbackUrl') {
    throw new TypeError(
      "[@questkit/mock-platform] connectCallbackParam must be 'callback' or 'callbackUrl'",
    );
  }
  const { store, clock } = context;
  // Never the request's Host: a request naming another host would have the mock sign, and the
  // community follow, a callback to that host.
  let listening = 'http://127.0.0.1';
  const callbackBase = () => `${baseUrl ?? listening}${CONNECT_CALLBACK_PATH}`;
  const nonces = new Map<string, { communityId: string; userId: string; expiresAt: number }>();

  return {
    callbackBase,
    listeningOn(url) {
      listening = normalizeBaseUrl(url) ?? listening;
    },
    async start(input) {
      const community = store.communities.getBySubdomain(input.subdomain);
      if (!community) return apiError(404, `Community "${input.subdomain}" not found`);
      const quest = store.quests.get(input.questId);
      if (!quest || quest.communityId !== community.id) {
        return apiError(
          404,
          `Quest ${input.questId} not found in community ${community.subdomain}`,
        );
      }
      const user = findMember(store, community, input.userId);
      if (!user) return memberNotFound(input.userId, community);
      const task = connectTask(quest.tasks, input.taskId);
      if (!task) {
        return apiError(
          409,
          input.taskId === undefined
            ? `Quest ${quest.id} has no api task with a redirectUrl`
            : `Task ${input.taskId} is not an api task of quest ${quest.id} with a redirectUrl`,
        );
      }
      const redirectUrl = task.settings.redirectUrl!;
      // The mock signs the redirect with the community's secret: a redirect to its own callback
      // would be a callback signed without the community (the callback refuses it too).
      if (pointsAtCallback(redirectUrl, callbackBase())) {
        return apiError(
          409,
          `The redirectUrl of task ${task.id} points at the mock's own connect callback: it must be the community's connect endpoint`,
        );
      }
      const callback = new URL(callbackBase());
      callback.searchParams.set('subdomain', community.subdomain);
      callback.searchParams.set('userId', user.id);
      callback.searchParams.set('redirectUrl', redirectUrl);
      const nonce = randomHex(16);
      callback.searchParams.set('nonce', nonce);
      const now = clock.now().getTime();
      for (const [old, entry] of nonces) if (entry.expiresAt <= now) nonces.delete(old);
      nonces.set(nonce, {
        communityId: community.id,
        userId: user.id,
        expiresAt: now + CONNECT_NONCE_TTL_MS,
      });
      try {
        return {
          location: await createConnectRedirect({
            redirectUrl,
            svcUserId: user.id,
            callback: callback.href,
            secret: community.connectSecret,
            callbackParam: input.callbackParam ?? defaultParam,
          }),
        };
      } catch {
        return apiError(409, `The redirectUrl of task ${task.id} is not an absolute URL`);
      }
    },
    async callback(requestUrl) {
      const fail = (reason: ConnectCallbackFailure): ConnectCallbackResult => ({
        ok: false,
        reason,
        message: FAILURE_MESSAGES[reason],
      });
      let received: URL;
      try {
        received = new URL(requestUrl);
      } catch {
        return fail('invalid_url');
      }
      // The nonce first: the route is open to any browser (no control token), so a request
      // without a live nonce, which only a start issues, learns nothing else (whether a
      // community or a member exists, whether a signature is well-formed).
      const nonce = single(received.searchParams, 'nonce');
      const issued = nonce === undefined ? undefined : nonces.get(nonce);
      if (nonce === undefined || !issued) return fail('used_nonce');
      if (issued.expiresAt <= clock.now().getTime()) {
        nonces.delete(nonce);
        return fail('expired_nonce');
      }
      // Verify the URL the community signed: the callback the mock gave it, on its public URL.
      const signed = `${callbackBase()}${received.search}`;
      const subdomain = single(received.searchParams, 'subdomain');
      const community = subdomain ? store.communities.getBySubdomain(subdomain) : undefined;
      if (!community) return fail('unknown_community');
      const verified = await verifySignedUrl(signed, community.connectSecret);
      if (!verified.ok) return fail(verified.reason);
      // Every redirect the mock signs carries svcUserId and the callback: such a URL was signed
      // by the mock (a task redirectUrl pointing here), never by the community as its answer.
      if (['svcUserId', 'callback', 'callbackUrl'].some((name) => verified.params.has(name))) {
        return fail('not_a_callback');
      }
      const userId = single(verified.params, 'userId');
      const redirectUrl = single(verified.params, 'redirectUrl');
      const identifier = single(verified.params, 'identifier');
      if (!userId || !redirectUrl || !identifier || identifier.length > MAX_IDENTIFIER_LENGTH) {
        return fail('missing_parameter');
      }
      if (issued.userId !== userId || issued.communityId !== community.id)
        return fail('wrong_member');
      nonces.delete(nonce);
      if (!findMember(store, community, userId)) return fail('unknown_member');
      const connection: ConnectionRecord = {
        communityId: community.id,
        userId,
        redirectUrl,
        identifier,
        createdAt: clock.now().toISOString(),
      };
      store.connections.put(connection);
      return { ok: true, connection };
    },
  };
}
