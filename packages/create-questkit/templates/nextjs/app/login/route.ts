import { getSessionSettings } from '../../lib/endpoints';
import { login, loginPage } from '../../lib/login';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });

// A minimal sign-in to replace with yours (lib/login.ts): once it sets the session, /api/connect
// knows the member.
export function GET(request: Request) {
  return html(loginPage(new URL(request.url).searchParams.get('returnTo')));
}

export async function POST(request: Request) {
  const session = getSessionSettings();
  const form = await request.formData().then(
    (data) => Object.fromEntries(data),
    () => ({}),
  );
  const answer = await login(form, session);
  if (answer.status !== 303) return html(answer.html, answer.status);
  return new Response(null, {
    status: 303,
    headers: { location: answer.location, 'set-cookie': answer.cookie },
  });
}
