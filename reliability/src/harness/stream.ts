import { once } from 'node:events';
import type { Socket } from 'node:net';
import { open, type RawResponse, readResponse } from './raw-http.js';

/** What happened to a streamed upload. */
export interface UploadOutcome {
  response: RawResponse | undefined;
  /** Body bytes the client managed to write before the answer or the close. */
  bytesSent: number;
  /** Whether the server closed the connection within the time allowed after its answer. */
  closedByServer: boolean;
  error?: string;
}

/**
 * Streams `totalBytes` of body (spaces, which no JSON parser can finish early on) after `head`,
 * as fast as the server takes them, and stops at the server's answer or close, or `timeoutMs`.
 */
export async function streamUpload(
  port: number,
  head: Buffer,
  options: { totalBytes: number; chunked: boolean; timeoutMs: number },
): Promise<UploadOutcome> {
  const socket = await open(port);
  socket.on('error', () => {});
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const framed = options.chunked
    ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
    : chunk;
  let answered = false;
  let closed = false;
  const closing = once(socket, 'close').then(
    () => {
      closed = true;
    },
    () => {
      closed = true;
    },
  );
  const answer = readResponse(socket, { timeoutMs: options.timeoutMs }).then(
    (response) => {
      answered = true;
      return response;
    },
    (error: Error) => {
      answered = true;
      return error;
    },
  );
  let bytesSent = 0;
  const stopped = Promise.race([answer, closing]);
  socket.write(head);
  while (bytesSent < options.totalBytes && !answered && !closed && !socket.destroyed) {
    const flushed = socket.write(framed);
    bytesSent += chunk.length;
    // A write error (the server closed its end) rejects `once`: the loop then sees the close.
    if (!flushed) await Promise.race([once(socket, 'drain').catch(() => {}), stopped]);
  }
  if (!answered && !closed && options.chunked) socket.write('0\r\n\r\n');
  const result = await answer;
  const closedByServer = await closedWithin(socket, 2_000);
  socket.destroy();
  if (result instanceof Error) {
    return { response: undefined, bytesSent, closedByServer, error: result.message };
  }
  return { response: result, bytesSent, closedByServer };
}

/** Resolves true once the peer closes (or already did), false after `ms`. */
export function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  if (socket.destroyed || socket.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off('end', done);
      socket.off('close', done);
      resolve(false);
    }, ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    socket.once('end', done);
    socket.once('close', done);
    socket.resume();
  });
}
