// A connect route that signs-checks the URL Next.js reports: reached at 127.0.0.1, `request.url`
// says localhost, so the HMAC never matches the URL the platform signed. Otherwise correct: it
// redirects to the callback with the identifier, signed.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const dynamic = 'force-dynamic';

const hmac = (text) => createHmac('sha256', process.env.CONNECT_SECRET).update(text).digest('hex');

export async function GET(request) {
  const url = new URL(request.url);
  const signature = url.searchParams.get('signature') ?? '';
  url.searchParams.delete('signature');
  const expected = hmac(url.href);
  if (
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  ) {
    return Response.json({ error: 'Invalid signature' }, { status: 400 });
  }
  const back = new URL(url.searchParams.get('callback'));
  back.searchParams.set('identifier', 'member-from-next');
  back.searchParams.set('signature', hmac(back.href));
  return Response.redirect(back.href, 302);
}
