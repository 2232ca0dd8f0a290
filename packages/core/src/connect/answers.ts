import type { DoorAnswer, DoorRequest } from '../adapter/door.js';
import { renderMessagePage } from './pages.js';
import type { ConnectRedirectFailure } from './redirect.js';

/** Why a connect request was refused. */
export type ConnectFailure =
  | ConnectRedirectFailure
  | 'expired_state'
  | 'invalid_state'
  | 'other_browser'
  | 'bad_form'
  | 'not_logged_in'
  | 'method_not_allowed'
  | 'app_error';

const FAILURE_MESSAGES: Record<ConnectFailure, string> = {
  invalid_url: 'This connect link is not a valid address.',
  missing_signature: 'This connect link is not signed. Start again from the quest page.',
  duplicate_signature: 'This connect link is not valid. Start again from the quest page.',
  malformed_signature: 'This connect link is not valid. Start again from the quest page.',
  bad_signature: 'This connect link has an invalid signature. Start again from the quest page.',
  missing_svc_user_id: 'This connect link does not say which member to link.',
  missing_callback: 'This connect link does not say where to return.',
  invalid_callback: 'This connect link returns to an address that is not allowed.',
  callback_not_allowed: 'This connect link returns to an address that is not allowed.',
  expired_state: 'This connect link has expired. Start again from the quest page.',
  invalid_state: 'This connect link is not valid. Start again from the quest page.',
  other_browser:
    'This connect link was already used, or opened in another browser. Start again from the quest page.',
  bad_form: 'This confirmation is not valid. Start again from the quest page.',
  not_logged_in: 'Log in first, then start again from the quest page.',
  method_not_allowed: 'This connect page only answers GET and POST requests.',
  app_error: 'We could not link your account right now. Please try again.',
};

// Pages are never cached, never framed (a framed Confirm button could be clicked by trickery),
// and run no script.
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/** An HTML page. Whether the connection closes is decided once, by the flow's front door. */
export function page(status: number, html: string, cookies: string[] = []): DoorAnswer {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS },
    cookies,
    body: html,
    close: false,
  };
}

/** A redirect that leaks neither the flow's URL (no referrer) nor itself to a cache. */
export function redirect(status: 302 | 303, location: string, cookies: string[] = []): DoorAnswer {
  return {
    status,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    cookies,
    body: '',
    close: false,
  };
}

/** A refusal: an HTML page for browsers (`Accept: text/html`), JSON `{message, reason}` else. */
export function failure(
  request: DoorRequest,
  reason: ConnectFailure,
  cookies: string[] = [],
): DoorAnswer {
  const message = FAILURE_MESSAGES[reason];
  if (!/text\/html/i.test(request.header('accept') ?? '')) {
    return {
      status: 400,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      cookies,
      body: JSON.stringify({ message, reason }),
      close: false,
    };
  }
  return page(400, renderMessagePage('Account not linked', message), cookies);
}
