/**
 * The client's address for the login throttle. With no trusted proxy, the socket's peer: a
 * header the client wrote proves nothing. Behind `trustedProxies` proxies, each appending the
 * address it saw to `X-Forwarded-For`, the entry that many steps from the right end (the socket's
 * peer being the last proxy): what the client wrote before them is never read.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: number,
): string {
  const peer = socketAddress ?? 'unknown';
  if (trustedProxies === 0) return peer;
  const chain = [
    ...(forwardedFor ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    peer,
  ];
  // Fewer entries than proxies: the request did not come through all of them; the first is the
  // nearest to the client that any trusted proxy saw.
  return chain[Math.max(0, chain.length - 1 - trustedProxies)]!;
}
