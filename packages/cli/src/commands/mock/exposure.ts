/**
 * Why the mock is reachable beyond loopback, one phrase per flag that makes it so; empty when it
 * is not. Bound to loopback but published through a tunnel or a proxy (a public Host allowed, a
 * public URL), it is reached from anywhere, exactly as when bound to 0.0.0.0.
 */
export function exposureReasons(input: {
  host: string;
  allowedHosts: readonly string[] | undefined;
  publicUrl: string | undefined;
}): string[] {
  const reasons: string[] = [];
  if (!isLoopback(input.host)) reasons.push(`--host ${input.host}`);
  const publicHosts = (input.allowedHosts ?? []).filter((name) => !isLoopback(name));
  if (publicHosts.length > 0) reasons.push(`--allowed-hosts ${input.allowedHosts!.join(',')}`);
  if (input.publicUrl !== undefined && !isLoopback(hostOf(input.publicUrl))) {
    reasons.push(`--public-url ${input.publicUrl}`);
  }
  return reasons;
}

/** The host name of a URL; the text itself when it is not one (then never loopback). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A loopback name or address: `localhost` (and its subdomains), 127.0.0.0/8, `::1`. */
export function isLoopback(host: string): boolean {
  const name = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}
