import { getVerifier } from '../../../lib/endpoints';

// The Node.js runtime (the default): the verifier reads the body itself, within its limits.
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const answer = (request: Request) => getVerifier().fetch(request);

// POST is the platform's call; every other method gets the contract's 400 {message}, not a 405.
export const POST = answer;
export const GET = answer;
export const PUT = answer;
export const PATCH = answer;
export const DELETE = answer;
