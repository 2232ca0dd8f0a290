import { escapeHtml } from '@questkit/core';
import type { Member, PlatformLink } from './community.js';

/** The community's name, shown on every page and in the verification messages. */
export const COMMUNITY_NAME = 'Acme Builders';

/** Text safe inside HTML content and quoted attributes (core's, re-exported for the app). */
export { escapeHtml };

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} · ${COMMUNITY_NAME}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; line-height: 1.5">
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/** The home page: who is logged in and their platform link. */
export function homePage(member: Member | null, link: PlatformLink | null, csrf: string): string {
  if (!member) {
    return page(COMMUNITY_NAME, '<p>You are not logged in. <a href="/login">Log in</a></p>');
  }
  const linkText = link
    ? `<p id="link">Your account is linked to platform member <code>${escapeHtml(link.svcUserId)}</code> since ${escapeHtml(link.linkedAt)}.</p>`
    : '<p id="link">Your account is not linked to the quest platform yet. Start from the quest page on the platform.</p>';
  return page(
    COMMUNITY_NAME,
    `<p>Logged in as <strong>${escapeHtml(member.displayName)}</strong> (${escapeHtml(member.username)}).</p>
${linkText}
<form method="post" action="/logout"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><button>Log out</button></form>`,
  );
}

/** A page with one message: refusals. */
export function messagePage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`);
}

/** The login form; `returnTo` is where the member goes after logging in. */
export function loginPage(returnTo: string, csrf: string, error?: string): string {
  return page(
    'Log in',
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/login">
<input type="hidden" name="returnTo" value="${escapeHtml(returnTo)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><label>Username <input name="username" autocomplete="username" required></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button>Log in</button></p>
</form>`,
  );
}
