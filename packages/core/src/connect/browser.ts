import type { DoorRequest } from '../adapter/door.js';
import type { FrontDoor } from '../front-door/index.js';
import { hmacHex, importHmacKey, sha256Hex, toHex } from '../hmac.js';
import { timingSafeEqual } from '../secrets.js';
import type { ConnectFailure } from './answers.js';
import { type ConnectState, createConnectState } from './state.js';

/**
 * What binds a connect flow to the browser that started it: a nonce kept in a cookie of the
 * connect route, whose hash the flow's state token carries, and a confirmation form token bound
 * to that nonce and to the member the page was shown to. A link opened in another browser, or a
 * flow resumed a second time, finds no matching nonce.
 */
export interface BrowserBinding {
  /** Starts a flow in this browser: its sealed state token, and the cookie that keeps the nonce. */
  start(url: URL, svcUserId: string, callback: string): Promise<StartedFlow>;
  /** The state of a resumed flow, when this browser holds the nonce it was started with. */
  resume(token: string, request: DoorRequest): Promise<BoundState | ConnectFailure>;
  /** The confirmation form's token, bound to the browser's nonce, the member and the flow. */
  formToken(nonce: string, identifier: string, token: string): Promise<string>;
  /** The cookie that ends the flow in this browser: its token cannot be used again. */
  end(url: URL): string;
}

/** A flow's state, with the nonce of the browser that holds it. */
export type BoundState = ConnectState & { readonly nonce: string };

/** A flow just started: its state token, its state, and the nonce cookie to set. */
export interface StartedFlow {
  readonly token: string;
  readonly member: BoundState;
  readonly cookie: string;
}

const NONCE_COOKIE = 'qk_connect_nonce';
const MAX_FORM_BYTES = 8 * 1024;

/** Binds flows to browsers, with state tokens and form tokens keyed from `secret`. */
export function bindToBrowser(secret: string, ttlSeconds: number): BrowserBinding {
  const state = createConnectState({ secret, ttlSeconds });
  // Its own key, derived from the secret: a form token can never pass as a URL signature.
  const formKey = importHmacKey(`${secret}\u0000questkit-connect-confirm-v1`);
  /** The cookie, scoped to the connect route. */
  const cookie = (url: URL, value: string, maxAge: number) =>
    `${NONCE_COOKIE}=${value}; Path=${url.pathname}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${url.protocol === 'https:' ? '; Secure' : ''}`;

  return {
    async start(url, svcUserId, callback) {
      const nonce = toHex(crypto.getRandomValues(new Uint8Array(16)));
      const token = await state.seal({ svcUserId, callback, nonceHash: await sha256Hex(nonce) });
      return {
        token,
        member: { svcUserId, callback, nonce },
        cookie: cookie(url, nonce, ttlSeconds),
      };
    },
    async resume(token, request) {
      const opened = await state.open(token);
      if (!opened.ok) return opened.reason === 'expired' ? 'expired_state' : 'invalid_state';
      const nonce = readCookie(request.header('cookie'), NONCE_COOKIE);
      if (
        !opened.nonceHash ||
        !nonce ||
        !timingSafeEqual(await sha256Hex(nonce), opened.nonceHash)
      ) {
        return 'other_browser';
      }
      return { ...opened, nonce };
    },
    formToken: (nonce, identifier, token) =>
      hmacHex(formKey, `${nonce}\u0000${identifier}\u0000${token}`),
    end: (url) => cookie(url, '', 0),
  };
}

/** The confirmation form's fields, from a urlencoded body or a framework's parsed form. */
export async function readConfirmationForm(
  door: FrontDoor,
): Promise<Map<string, string> | undefined> {
  const read = await door.read(MAX_FORM_BYTES);
  if (!read.ok) return undefined;
  const form = new Map<string, string>();
  if ('parsed' in read) {
    if (typeof read.parsed !== 'object' || read.parsed === null) return undefined;
    for (const [name, value] of Object.entries(read.parsed)) {
      if (typeof value === 'string') form.set(name, value);
    }
    return form;
  }
  const params = new URLSearchParams(read.text);
  for (const name of new Set(params.keys())) {
    // A field given twice is ambiguous: it counts as absent.
    const values = params.getAll(name);
    if (values.length === 1) form.set(name, values[0]!);
  }
  return form;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      return value === '' ? undefined : value;
    }
  }
  return undefined;
}
