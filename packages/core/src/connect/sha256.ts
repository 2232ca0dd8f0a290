/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain JavaScript.
 *
 * Why not Web Crypto: on Node 20 one `crypto.subtle` call costs about 50 µs, more than hashing a
 * whole URL here, and it is async. Connect signatures are checked on the request path (design
 * invariant 3), so the hash is a small synchronous loop instead.
 */

const encoder = new TextEncoder();

// First 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

// First 32 bits of the fractional parts of the square roots of the first 8 primes.
const INITIAL_STATE = new Uint32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

const BLOCK_BYTES = 64;

/** Folds one 64-byte block at `offset` of `data` into `state`; `w` is scratch space. */
function compress(state: Uint32Array, w: Uint32Array, data: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = ((data[j]! << 24) | (data[j + 1]! << 16) | (data[j + 2]! << 8) | data[j + 3]!) >>> 0;
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (h + S1 + ch + K[i]! + w[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = state[0]! + a;
  state[1] = state[1]! + b;
  state[2] = state[2]! + c;
  state[3] = state[3]! + d;
  state[4] = state[4]! + e;
  state[5] = state[5]! + f;
  state[6] = state[6]! + g;
  state[7] = state[7]! + h;
}

/**
 * Finishes a hash whose first `prefixBytes` bytes are already folded into `from` (0 for a plain
 * hash, 64 after an HMAC pad), then hashes `data` and the padding. `from` is left untouched, so
 * one precomputed HMAC state serves every message.
 */
function digestFrom(from: Uint32Array, prefixBytes: number, data: Uint8Array): Uint8Array {
  const state = from.slice();
  const w = new Uint32Array(64);
  const fullBlocks = Math.floor(data.length / BLOCK_BYTES);
  for (let i = 0; i < fullBlocks; i++) compress(state, w, data, i * BLOCK_BYTES);

  // The rest, a 0x80 byte, zeros, and the 64-bit big-endian bit length fill one or two blocks.
  const rest = data.length - fullBlocks * BLOCK_BYTES;
  const tail = new Uint8Array(rest + 9 > BLOCK_BYTES ? 2 * BLOCK_BYTES : BLOCK_BYTES);
  tail.set(data.subarray(fullBlocks * BLOCK_BYTES));
  tail[rest] = 0x80;
  const totalBytes = prefixBytes + data.length;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, Math.floor(totalBytes / 0x20000000));
  view.setUint32(tail.length - 4, (totalBytes * 8) >>> 0);
  for (let offset = 0; offset < tail.length; offset += BLOCK_BYTES)
    compress(state, w, tail, offset);

  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, state[i]!);
  return out;
}

/** SHA-256 of `data`, 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return digestFrom(INITIAL_STATE, 0, data);
}

/** Lower-case hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

/**
 * Returns a keyed HMAC-SHA256 function over bytes. The key pads are folded into two hash states
 * once here, so each call hashes only the message and one inner digest.
 */
export function createHmacSha256Bytes(key: Uint8Array): (message: Uint8Array) => Uint8Array {
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
  const w = new Uint32Array(64);
  const pad = new Uint8Array(BLOCK_BYTES);

  const inner = INITIAL_STATE.slice();
  for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = block[i]! ^ 0x36;
  compress(inner, w, pad, 0);

  const outer = INITIAL_STATE.slice();
  for (let i = 0; i < BLOCK_BYTES; i++) pad[i] = block[i]! ^ 0x5c;
  compress(outer, w, pad, 0);

  // Leave no copy of the key behind in the scratch buffers.
  block.fill(0);
  pad.fill(0);
  return (message) => digestFrom(outer, BLOCK_BYTES, digestFrom(inner, BLOCK_BYTES, message));
}

/**
 * Returns HMAC-SHA256 keyed with the UTF-8 bytes of `secret`, as a function from a message
 * (hashed as UTF-8) to its lower-case hex digest. Synchronous, with the key pads computed once.
 *
 * @example
 * const mac = createHmacSha256('community-secret');
 * mac('https://app.example.com/connect?svcUserId=u-1'); // 64 lower-case hex characters
 */
export function createHmacSha256(secret: string): (message: string) => string {
  const mac = createHmacSha256Bytes(encoder.encode(secret));
  return (message) => toHex(mac(encoder.encode(message)));
}
