import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server.js';

// Attack of the fifth round: behind the proxy the README describes, every client arrives from the
// proxy's address; 11 wrong passwords from a stranger then locked out every member.

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A browser behind the proxy: every request comes from 127.0.0.1, its own address in a header. */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(readonly forwardedFor: string | undefined) {}

  send(method: string, path: string, body?: string) {
    const { port } = new URL(server!.url);
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = cookie ? { cookie } : {};
    // What nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` sends.
    if (this.forwardedFor) headers['x-forwarded-for'] = this.forwardedFor;
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method, path, headers, timeout: 30_000 },
        (res) => {
          for (const set of res.headers['set-cookie'] ?? []) {
            const pair = set.split(';')[0]!;
            const index = pair.indexOf('=');
            this.jar.set(pair.slice(0, index), pair.slice(index + 1));
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
      req.on('error', reject);
      req.end(body);
    });
  }

  async logIn(username: string, password: string): Promise<number> {
    const page = await this.send('GET', '/login');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const form = new URLSearchParams({ username, password, returnTo: '/', csrf }).toString();
    return (await this.send('POST', '/login', form)).status;
  }
}

const start = async (trustedProxies?: number) => {
  server = await startServer({
    apiKey: 'example-test-key-0123',
    connectSecret: 'connect-test-secret-0123',
    port: 0,
    ...(trustedProxies !== undefined ? { trustedProxies } : {}),
  });
};

describe('behind a proxy (TRUST_PROXY=1): the lockout is keyed on the client, not the proxy', () => {
  it("11 wrong passwords from a stranger leave other members' logins, and the owner's, working", async () => {
    await start(1);
    const owner = new Browser('198.51.100.10');
    expect(await owner.logIn('ben', 'ben-demo-password')).toBe(303);
    const stranger = new Browser('203.0.113.7');
    const guesses = [];
    for (let index = 0; index < 11; index++) guesses.push(await stranger.logIn('ben', 'guess'));
    // The stranger's own address is refused past its limit (10 a minute).
    expect(guesses.at(-1)).toBe(429);
    // Another member, from her own address behind the same proxy, in a new browser.
    expect(await new Browser('198.51.100.20').logIn('ada', 'ada-demo-password')).toBe(303);
    // The owner, from the browser she used before.
    expect(await owner.logIn('ben', 'ben-demo-password')).toBe(303);
  }, 60_000);

  it('reads the address the proxy appended, not one the client wrote before it', async () => {
    await start(1);
    const statuses = [];
    // A stranger who writes a new address each time: the proxy appends the real one last.
    for (let index = 0; index < 11; index++) {
      statuses.push(await new Browser(`10.0.0.${index}, 203.0.113.7`).logIn('ben', 'guess'));
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  }, 60_000);

  it('without TRUST_PROXY, the header is ignored: a client cannot pick its address', async () => {
    await start();
    const statuses = [];
    for (let index = 0; index < 11; index++) {
      statuses.push(await new Browser(`203.0.113.${index}`).logIn('ben', 'guess'));
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  }, 60_000);
});
