import { requestFromWeb, responseFromAnswer } from '@questkit/core/adapter';
import { getWebhookReceiver } from '../../../lib/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// The receiver reads the body itself, within its size limit and deadline.
export const POST = async (request: Request) =>
  responseFromAnswer(await getWebhookReceiver().handle(requestFromWeb(request), request));
