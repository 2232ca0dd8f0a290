/**
 * A raw HTTP/1.1 client over `node:net`: it sends exactly the bytes a test builds (duplicated,
 * oversized or odd headers, lying framing, bodies that trickle or stop) and parses what comes
 * back without trusting the server to frame it well.
 */
import { connect, type Socket } from 'node:net';

/** A parsed HTTP response. Header names are lower-cased; repeated headers keep every value. */
export interface RawResponse {
  status: number;
  headers: Map<string, string[]>;
  body: Buffer;
  /** The response as received (status line, headers, body), for searching. */
  raw: Buffer;
}

/** One request to serialize. */
export interface RequestSpec {
  method: string;
  path: string;
  /** Sent in this order, repeats included. */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
  /** `length`: a content-length; `chunked`: chunks of the given sizes; `none`: no framing header. */
  framing: 'length' | 'chunked' | 'none';
  /** Chunk sizes for `chunked` (the last chunk takes the rest). */
  chunks?: readonly number[];
}

const CRLF = '\r\n';

/** The bytes of a request, framed as the spec says. */
export function serializeRequest(spec: RequestSpec): Buffer {
  const lines = [`${spec.method} ${spec.path} HTTP/1.1`];
  for (const [name, value] of spec.headers) lines.push(`${name}: ${value}`);
  const body = Buffer.from(spec.body.buffer, spec.body.byteOffset, spec.body.byteLength);
  if (spec.framing === 'length') lines.push(`content-length: ${body.byteLength}`);
  if (spec.framing === 'chunked') lines.push('transfer-encoding: chunked');
  const head = Buffer.from(lines.join(CRLF) + CRLF + CRLF, 'latin1');
  if (spec.framing !== 'chunked') return Buffer.concat([head, body]);
  const parts: Buffer[] = [head];
  let offset = 0;
  for (const size of [...(spec.chunks ?? []), body.byteLength]) {
    const take = Math.min(size, body.byteLength - offset);
    if (take <= 0) continue;
    parts.push(Buffer.from(`${take.toString(16)}${CRLF}`, 'latin1'));
    parts.push(body.subarray(offset, offset + take), Buffer.from(CRLF, 'latin1'));
    offset += take;
  }
  parts.push(Buffer.from(`0${CRLF}${CRLF}`, 'latin1'));
  return Buffer.concat(parts);
}

type Parsed = { response: RawResponse; rest: Buffer } | 'incomplete';

/**
 * Parses one response from the start of `data`. `closed` says the peer ended the connection, so
 * a body framed by the close is complete. 1xx interim responses are skipped.
 */
export function parseResponse(data: Buffer, options: { head: boolean; closed: boolean }): Parsed {
  let start = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', start, 'latin1');
    if (end === -1) return 'incomplete';
    const lines = data.subarray(start, end).toString('latin1').split(CRLF);
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!match) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
    const status = Number(match[1]);
    const headers = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      start = bodyStart;
      continue;
    }
    const finish = (body: Buffer, next: number): Parsed => ({
      response: { status, headers, body, raw: data.subarray(start, next) },
      rest: data.subarray(next),
    });
    if (options.head || status === 204 || status === 304) {
      return finish(Buffer.alloc(0), bodyStart);
    }
    const encoding = headers.get('transfer-encoding')?.join(',').toLowerCase() ?? '';
    if (encoding.includes('chunked')) {
      const chunks: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = data.indexOf(CRLF, at, 'latin1');
        if (lineEnd === -1) return 'incomplete';
        const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) throw new Error('bad chunk size');
        const chunkStart = lineEnd + 2;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n\r\n', lineEnd, 'latin1');
          if (trailerEnd === -1) return 'incomplete';
          return finish(Buffer.concat(chunks), trailerEnd + 4);
        }
        if (data.length < chunkStart + size + 2) return 'incomplete';
        chunks.push(data.subarray(chunkStart, chunkStart + size));
        at = chunkStart + size + 2;
      }
    }
    const length = headers.get('content-length')?.[0];
    if (length !== undefined) {
      const size = Number(length);
      if (data.length < bodyStart + size) return 'incomplete';
      return finish(data.subarray(bodyStart, bodyStart + size), bodyStart + size);
    }
    if (!options.closed) return 'incomplete';
    return finish(data.subarray(bodyStart), data.length);
  }
}

/** Thrown when the server closed or reset the connection without a complete answer. */
export class NoAnswerError extends Error {
  constructor(
    message: string,
    readonly received: Buffer,
  ) {
    super(message);
  }
}

/**
 * Waits for one complete response on `socket`. Bytes that follow it (a second response that
 * should not exist) are returned as `rest`, along with those that arrive in `lingerMs` after it.
 */
export function readResponse(
  socket: Socket,
  options: { head?: boolean; timeoutMs: number; lingerMs?: number },
): Promise<RawResponse & { rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    let closed = false;
    let done = false;
    const timer = setTimeout(
      () => settle(new NoAnswerError(`no answer within ${options.timeoutMs} ms`, data)),
      options.timeoutMs,
    );
    const cleanup = () => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
    };
    const settle = (result: Error | { response: RawResponse; rest: Buffer }) => {
      if (done) return;
      done = true;
      if (result instanceof Error) {
        cleanup();
        reject(result);
        return;
      }
      const linger = options.lingerMs ?? 0;
      if (linger === 0 || closed) {
        cleanup();
        resolve({ ...result.response, rest: result.rest });
        return;
      }
      let rest = result.rest;
      socket.off('data', onData);
      const onMore = (chunk: Buffer) => {
        rest = Buffer.concat([rest, chunk]);
      };
      socket.on('data', onMore);
      setTimeout(() => {
        socket.off('data', onMore);
        cleanup();
        resolve({ ...result.response, rest });
      }, linger);
    };
    const attempt = () => {
      let parsed: Parsed;
      try {
        parsed = parseResponse(data, { head: options.head ?? false, closed });
      } catch (error) {
        settle(error as Error);
        return;
      }
      if (parsed !== 'incomplete') settle(parsed);
      else if (closed)
        settle(new NoAnswerError('connection closed before a complete answer', data));
    };
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      attempt();
    };
    const onEnd = () => {
      closed = true;
      attempt();
    };
    // A reset after a complete answer is harmless (the server closed a body it did not read);
    // before one, whatever arrived is judged as if the connection had closed.
    const onError = () => onEnd();
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', onError);
  });
}

/** Opens a loopback connection. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Sends one request on a fresh connection, reads one answer, closes the connection. */
export async function exchange(
  port: number,
  request: Buffer,
  options: { head?: boolean; timeoutMs: number },
): Promise<RawResponse> {
  const socket = await open(port);
  // The server may answer and close before it reads everything (a body too large): a write
  // error then is expected, and the answer is what counts.
  socket.on('error', () => {});
  try {
    const answer = readResponse(socket, options);
    socket.write(request);
    return await answer;
  } finally {
    socket.destroy();
  }
}
