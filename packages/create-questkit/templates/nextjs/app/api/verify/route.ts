import { getVerifier } from '../../../lib/endpoints';

// The Node.js runtime: the verifier reads the body itself, within its own limits.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const answer = (request: Request) => getVerifier().fetch(request);

// POST is the platform's call; every other method gets the contract's 400 {message}, not a 405.
export { answer as POST, answer as GET, answer as PUT, answer as PATCH, answer as DELETE };
