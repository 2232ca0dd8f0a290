import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server.js';

// Attack of issue 49: 11 wrong passwords a minute, from any addresses, kept a member locked out;
// the right password then got 429.

let server: RunningServer;
beforeEach(async () => {
  server = await startServer({
    apiKey: 'example-test-key-0123',
    connectSecret: 'connect-test-secret-0123',
    port: 0,
  });
});
afterEach(() => server.close());

/** A browser on one loopback address, with its cookies; undici's fetch cannot choose the address. */
class Client {
  readonly jar = new Map<string, string>();
  constructor(readonly from: string) {}

  send(method: string, path: string, body?: string) {
    const { port } = new URL(server.url);
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = cookie ? { cookie } : {};
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          localAddress: this.from,
          headers,
          timeout: 30_000,
        },
        (res) => {
          for (const set of res.headers['set-cookie'] ?? []) {
            const pair = set.split(';')[0]!;
            const index = pair.indexOf('=');
            const [name, value] = [pair.slice(0, index), pair.slice(index + 1)];
            if (value === '' || /max-age=0/i.test(set)) this.jar.delete(name);
            else this.jar.set(name, value);
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

describe('login throttle: a stranger cannot lock the owner out', () => {
  it("11 wrong passwords from 11 addresses leave the owner's own browser able to log in", async () => {
    const owner = new Client('127.0.0.10');
    expect(await owner.logIn('ada', 'ada-demo-password')).toBe(303);
    const strangers = Array.from({ length: 11 }, (_, index) => new Client(`127.0.0.${20 + index}`));
    const guesses = [];
    for (const stranger of strangers) guesses.push(await stranger.logIn('ada', 'guess'));
    // The account's limit (10 a minute, the owner's login counted) still stops guesses from
    // elsewhere past it.
    expect(guesses).toEqual([...Array(9).fill(401), 429, 429]);
    // The owner, from the browser she logged in with before: the right password works.
    expect(await owner.logIn('ada', 'ada-demo-password')).toBe(303);
    // A browser that never logged in to the account: the account's limit holds for it.
    expect(await new Client('127.0.0.40').logIn('ada', 'ada-demo-password')).toBe(429);
  }, 60_000);

  it("a browser known to one account is not known to another's", async () => {
    const ben = new Client('127.0.0.11');
    expect(await ben.logIn('ben', 'ben-demo-password')).toBe(303);
    for (let index = 0; index < 10; index++) {
      expect(await new Client(`127.0.0.${50 + index}`).logIn('ada', 'guess')).toBe(401);
    }
    expect(await ben.logIn('ada', 'ada-demo-password')).toBe(429);
  }, 60_000);

  it('keeps the hard limit per address and account for a known browser', async () => {
    const owner = new Client('127.0.0.12');
    expect(await owner.logIn('ada', 'ada-demo-password')).toBe(303);
    const statuses = [];
    for (let index = 0; index < 10; index++) statuses.push(await owner.logIn('ada', 'guess'));
    // The successful login counted: 9 more checked, then the address's and account's limit.
    expect(statuses).toEqual([...Array(9).fill(401), 429]);
    expect(await owner.logIn('ada', 'ada-demo-password')).toBe(429);
  }, 60_000);
});
