/**
 * A verification endpoint that answers 200 `{message}` at once, for the mock platform's claims:
 * it reads the body and checks nothing, so the figures are the mock's. It counts the calls it
 * answered, so the suite can tell that every claim really made its call.
 */
import { createServer } from 'node:http';
import { listen } from './listen.mjs';

const ANSWER = JSON.stringify({ message: 'Verified at once.' });

export async function start() {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWER);
    });
  });
  const listening = await listen(server);
  return { ...listening, counters: () => ({ calls }) };
}
