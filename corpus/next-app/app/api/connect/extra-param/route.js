// A connect route that wants a parameter the platform never sends (`state`, as OAuth has): every
// redirect gets 400 before the signature is even looked at.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const dynamic = 'force-dynamic';

export async function GET(request) {
  const { searchParams } = new URL(request.url);
  const svcUserId = searchParams.get('svcUserId');
  const callback = searchParams.get('callback');
  const signature = searchParams.get('signature');
  const state = searchParams.get('state');
  if (!svcUserId || !callback || !signature || !state) {
    return Response.json({ error: 'Missing required parameters' }, { status: 400 });
  }
  const url = new URL(`${new URL(request.url).pathname}?${searchParams}`, process.env.APP_URL);
  url.searchParams.delete('signature');
  const expected = createHmac('sha256', process.env.CONNECT_SECRET).update(url.href).digest('hex');
  if (
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  ) {
    return Response.json({ error: 'Invalid signature' }, { status: 400 });
  }
  return Response.redirect(callback, 302);
}
