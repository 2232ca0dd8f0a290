// A minimal sign-in, to replace with your own login (your auth library, or a link sent by email).
// A member of MEMBERS types their id; a one-time code goes to this server's console (sendCode) and
// nowhere else; the code signs them in once, within 10 minutes. Typing someone's id alone signs
// nobody in, so it is safe to deploy as is: only whoever reads the server's logs can sign in.

import { sessionCookie } from './session.js';

/** The member ids that may sign in (the `svc-connect` account claims carry): replace with your users. */
export const MEMBERS: ReadonlySet<string> = new Set(['member-1']);
/** How long a sign-in code lasts. */
export const CODE_TTL_MS = 10 * 60 * 1000;

/** Delivers a member's code: to this server's console here; send it by email to the member instead. */
export function sendCode(memberId: string, code: string): void {
  console.log(`[my-quest-app] sign-in code for ${memberId}: ${code} (once, within 10 minutes)`);
}

const encoder = new TextEncoder();
// The code waiting for each member, kept as its HMAC so that checking it is crypto.subtle.verify
// (constant time); in this process's memory, so a code works only on the instance that sent it.
const waiting = new Map<string, { mac: ArrayBuffer; expires: number }>();
// A random key, made at the first sign-in, not at import (Workers allow no random numbers at start-up).
const newKey = () =>
  crypto.subtle.importKey(
    'raw',
    crypto.getRandomValues(new Uint8Array(32)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
let key: ReturnType<typeof newKey> | undefined;
function keyOf() {
  key ??= newKey();
  return key;
}

/** Sends a new code to `memberId` when it is one of MEMBERS; a stranger gets the same answer and no code. */
export async function requestCode(memberId: string, now = Date.now()): Promise<void> {
  if (!MEMBERS.has(memberId)) return;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const code = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const mac = await crypto.subtle.sign('HMAC', await keyOf(), encoder.encode(code));
  waiting.set(memberId, { mac, expires: now + CODE_TTL_MS });
  sendCode(memberId, code);
}

/** True for the code last sent to `memberId`, once, within its time: any try uses the code up. */
export async function redeemCode(memberId: string, code: string, now = Date.now()) {
  const entry = waiting.get(memberId);
  if (!entry || code.length > 64) return false;
  waiting.delete(memberId);
  const valid = await crypto.subtle.verify('HMAC', await keyOf(), entry.mac, encoder.encode(code));
  return valid && now < entry.expires;
}

/**
 * `returnTo` when it is a path of this site, else `/`: a login must never send the member to
 * another site (`//evil.example`, `https://evil.example`, `/\evil.example`).
 */
export function safeReturnTo(returnTo: unknown): string {
  // Backslashes, spaces and control characters: browsers read some as `/` or drop them.
  if (typeof returnTo !== 'string' || !returnTo.startsWith('/') || /[\\\0- \x7f]/.test(returnTo)) {
    return '/';
  }
  const here = 'http://this-app.invalid';
  const url = URL.canParse(returnTo, here) ? new URL(returnTo, here) : undefined;
  return url?.origin === here ? `${url.pathname}${url.search}${url.hash}` : '/';
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const field = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The login page: the member's id, or (`memberId` given) the code the console showed them. */
export function loginPage(returnTo: unknown, memberId?: string, notice?: string): string {
  const back = `<input type="hidden" name="returnTo" value="${escapeHtml(safeReturnTo(returnTo))}">`;
  const form = memberId
    ? `<p>If ${escapeHtml(memberId)} is a member, a sign-in code was sent (this app prints it to its server's console).</p>
<form method="post" action="/login">${back}<input type="hidden" name="member" value="${escapeHtml(memberId)}">
<label>Code <input name="code" autocomplete="one-time-code" required autofocus></label> <button>Sign in</button></form>`
    : `<form method="post" action="/login">${back}
<label>Member id <input name="member" autocomplete="username" required autofocus></label> <button>Send me a code</button></form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sign in · my-quest-app</title></head><body><main><h1>Sign in</h1>
${notice ? `<p role="alert">${escapeHtml(notice)}</p>` : ''}${form}</main></body></html>`;
}

/** What `POST /login` answers: a page, or the session's `Set-Cookie` and where to go next. */
export type LoginAnswer =
  | { status: 200 | 401; html: string }
  | { status: 303; location: string; cookie: string };

/**
 * `POST /login` from its form fields: `member` alone sends a code; `member` and `code` sign in,
 * setting the session (session.ts) and going back to `returnTo` (a path of this site only).
 */
export async function login(
  form: Readonly<Record<string, unknown>>,
  session: { secret: string; secure: boolean },
): Promise<LoginAnswer> {
  const memberId = field(form.member);
  const code = field(form.code);
  if (!memberId) return { status: 200, html: loginPage(form.returnTo) };
  if (!code) {
    await requestCode(memberId);
    return { status: 200, html: loginPage(form.returnTo, memberId) };
  }
  if (!(await redeemCode(memberId, code))) {
    const notice = 'That code is wrong, used or expired: ask for a new one.';
    return { status: 401, html: loginPage(form.returnTo, undefined, notice) };
  }
  const cookie = await sessionCookie(memberId, session.secret, session.secure);
  return { status: 303, location: safeReturnTo(form.returnTo), cookie };
}
