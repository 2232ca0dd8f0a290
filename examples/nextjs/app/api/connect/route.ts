import { getConnectFlow } from '../../../lib/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// GET shows the member what would be linked; the POST of its Confirm links. Next.js reports
// `request.url` with a host of its own (localhost) rather than the one the platform signed: the
// flow's `publicUrl` (PUBLIC_URL) is joined to the path and query instead.
const connect = (request: Request) => getConnectFlow().fetch(request);

export const GET = connect;
export const POST = connect;
