/**
 * The fixed request every endpoint benchmark sends, and the values both variants of a pair share.
 * The API key is a made-up benchmark value, not a secret of any deployment.
 */

/** Path of every verification endpoint under load. */
export const ROUTE = '/verify';

/** The key the endpoints accept; the load generator sends it in `x-api-key`. */
export const API_KEY = 'bench-key-7f3a9c21e4b84d0f9a6e5c3b2d1f0a98';

/** Four more keys, for the key-rotation micro-benchmark (the valid key is the last of five). */
export const ROTATED_KEYS = [
  'bench-key-old-1-5d2c8e7f1a3b4c6d8e9f0a1b2c3d4e5f',
  'bench-key-old-2-6e3d9f8a2b4c5d7e9f0a1b2c3d4e5f6a',
  'bench-key-old-3-7f4e0a9b3c5d6e8f0a1b2c3d4e5f6a7b',
  'bench-key-old-4-8a5f1b0c4d6e7f9a1b2c3d4e5f6a7b8c',
  API_KEY,
];

/** The claim the platform sends for a quest without identification methods: the five fields. */
export const CLAIM = Object.freeze({
  userId: '5f0c6a0e-2b1d-4c7e-9a3f-1d2e3f4a5b6c',
  communityId: '9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d',
  subdomain: 'bench-community',
  questId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
  requestId: '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928',
});

/** The same claim with one required field missing: the cheapest 400 after JSON parsing. */
export const INVALID_CLAIM = Object.freeze({
  userId: CLAIM.userId,
  communityId: CLAIM.communityId,
  subdomain: CLAIM.subdomain,
  questId: CLAIM.questId,
});

export const CLAIM_BODY = JSON.stringify(CLAIM);
export const INVALID_CLAIM_BODY = JSON.stringify(INVALID_CLAIM);

/** What both variants answer with status 200. */
export const MESSAGE = 'Quest verified, thanks!';

/** The headers of the load: JSON body and the API key. */
export const REQUEST_HEADERS = Object.freeze({
  'content-type': 'application/json',
  'x-api-key': API_KEY,
});

/** Connect secret of the signing micro-benchmarks (a bench value, not a real secret). */
export const CONNECT_SECRET = 'bench-connect-secret-2b9e4f7a1c6d8e0f3a5b7c9d';
