import { escapeHtml } from '@questkit/core';

/** What the page needs to know when it is served. */
export interface DashboardPageOptions {
  /** The communities to choose from, by subdomain. */
  subdomains: readonly string[];
  /** Whether control routes need the control token (the mock is bound beyond loopback). */
  tokenRequired: boolean;
}

const TOKEN_FORM = /\n *<!-- token-form:[\s\S]*?<!-- \/token-form -->/;

/** Replaces the one occurrence of `marker`; a page without it is a broken asset, not a page. */
function replaceOnce(html: string, marker: string | RegExp, replacement: string): string {
  const count =
    typeof marker === 'string'
      ? html.split(marker).length - 1
      : (html.match(new RegExp(marker, 'g')) ?? []).length;
  if (count !== 1) {
    throw new Error(`[@questkit/mock-platform] dashboard page.html: ${marker} ${count} times`);
  }
  return html.replace(marker, () => replacement);
}

/**
 * The dashboard's HTML: the shell of page.html (one section per area, filled by
 * `/__mock/dashboard/app.js` from the control routes, the same routes scripts use, under the same
 * Host, cross-site and token checks) with the communities to choose from, and the token form
 * when the control routes need the token. No data is in the HTML itself, so the page holds
 * nothing a caller without access could read.
 */
export function renderDashboardPage(template: string, options: DashboardPageOptions): string {
  const communities = options.subdomains
    .map(
      (subdomain) => `<option value="${escapeHtml(subdomain)}">${escapeHtml(subdomain)}</option>`,
    )
    .join('');
  let html = replaceOnce(
    template,
    '<body data-token-required="false">',
    `<body data-token-required="${options.tokenRequired}">`,
  );
  html = replaceOnce(
    html,
    '<select id="community"></select>',
    `<select id="community">${communities}</select>`,
  );
  const form = TOKEN_FORM.exec(html)?.[0];
  return replaceOnce(html, TOKEN_FORM, options.tokenRequired && form ? form : '');
}
