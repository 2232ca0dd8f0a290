// A connect route as a community wrote it: it checks the signature against the app's public URL
// (from its configuration), links the account, and answers JSON. It never redirects to the
// callback, so the member's browser stops on `{"success":true}` and the platform never learns
// the link.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const dynamic = 'force-dynamic';

function signedBy(secret, url, signature) {
  const expected = createHmac('sha256', secret).update(url).digest('hex');
  return (
    typeof signature === 'string' &&
    signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}

export async function GET(request) {
  const received = new URL(request.url);
  const url = new URL(`${received.pathname}${received.search}`, process.env.APP_URL);
  const signature = url.searchParams.get('signature');
  url.searchParams.delete('signature');
  if (!signedBy(process.env.CONNECT_SECRET, url.href, signature)) {
    return Response.json({ error: 'Invalid signature' }, { status: 400 });
  }
  // await db.link(session.user.id, url.searchParams.get('svcUserId'));
  return Response.json({ success: true });
}
