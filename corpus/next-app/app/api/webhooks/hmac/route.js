// A webhook receiver written as for GitHub or Stripe: it wants an HMAC of the raw body in a
// signature header. The platform sends none (its secret is in the body), so every delivery
// gets 401.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const dynamic = 'force-dynamic';

export async function POST(request) {
  const raw = await request.text();
  const signature = request.headers.get('x-webhook-signature');
  if (!signature) {
    return Response.json({ error: 'Missing webhook signature' }, { status: 401 });
  }
  const expected = createHmac('sha256', process.env.WEBHOOK_SECRET).update(raw).digest('hex');
  if (
    signature.length !== expected.length ||
    !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  ) {
    return Response.json({ error: 'Invalid webhook signature' }, { status: 401 });
  }
  const event = JSON.parse(raw);
  console.log('webhook', event.type);
  return Response.json({ received: true });
}
