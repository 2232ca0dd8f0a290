/** What the confirmation page shows and must post back. */
export interface ConfirmView {
  /** The community app's name, e.g. "Acme Builders". */
  appName: string;
  /** The member's account in the app, as `accountLabel` names it (default the identifier). */
  account: string;
  /** The platform member, shortened for people: `…` and the last characters of the id. */
  platformMember: string;
  /** The full platform member id. */
  svcUserId: string;
  /** The origin the member returns to afterwards (the platform's). */
  returnsTo: string;
  /** Where the form posts: the connect route itself. */
  action: string;
  /**
   * Hidden fields the form must post unchanged, plus a submit button named `decision` with the
   * value `confirm` or `cancel`.
   */
  fields: Readonly<Record<string, string>>;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

// Plain and accessible: one heading, the question in words, two real buttons, no script.
const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#fff}main{max-width:32rem;margin:auto}button{font:inherit;padding:.6rem 1.2rem;margin:.5rem .5rem 0 0;border-radius:.4rem;border:2px solid #1a1a1a;cursor:pointer}button[value=confirm]{background:#1a1a1a;color:#fff}button:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}';

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The default confirmation page: names both accounts, posts Confirm or Cancel. */
export function renderConfirmPage(view: ConfirmView): string {
  const hidden = Object.entries(view.fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return layout(
    'Link your account?',
    `<h1>Link your account?</h1><p>Link your ${escapeHtml(view.appName)} account <strong>${escapeHtml(view.account)}</strong> to platform member <strong>${escapeHtml(view.platformMember)}</strong>?</p><p>Only confirm if you started this from a quest yourself. You will then return to ${escapeHtml(view.returnsTo)}.</p><form method="post" action="${escapeHtml(view.action)}">${hidden}<button type="submit" name="decision" value="confirm">Confirm</button><button type="submit" name="decision" value="cancel">Cancel</button></form>`,
  );
}

/** A page with a heading and one paragraph: refusals and the cancelled flow. */
export function renderMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
