import { publicRequestUrl } from '@questkit/core';
import { requestFromWeb, responseFromAnswer } from '@questkit/core/adapter';
import { getConnectFlow } from '../../../lib/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// GET shows the member what would be linked; the POST of its Confirm links. Next.js reports
// request.url with a host of its own: the path is joined to PUBLIC_URL instead.
const connect = async (request: Request) => {
  const flow = getConnectFlow();
  const { pathname, search } = new URL(request.url);
  const url = flow.publicOrigin
    ? publicRequestUrl(pathname + search, flow.publicOrigin)
    : request.url;
  return responseFromAnswer(await flow.handle({ ...requestFromWeb(request), url }, request));
};

export { connect as GET, connect as POST };
