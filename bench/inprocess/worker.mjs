/**
 * One endpoint pair in one process, over Node's own HTTP stack (its parser, request and response
 * objects, the framework) but on in-memory sockets, with no kernel and no load generator in the
 * figures: `node inprocess/worker.mjs <module> <requestsPerRound> <rounds> [moduleArgs...]`.
 * Both variants run in the same process, in alternating order, and each round reports this
 * process's CPU time per answered request; prints one JSON line.
 *
 * Without the socket writes and reads (about 15 µs of the 35 to 40 µs a request costs node:http
 * over loopback) what remains is the JavaScript, so the ratio is a stricter one than over real
 * sockets, and a steadier one: it moves by about ±0.05 between runs where the loopback ratios of
 * the same pair move by ±0.15 on this 2-core machine.
 */
import { Duplex } from 'node:stream';
import { CLAIM_BODY, MESSAGE, REQUEST_HEADERS, ROUTE } from '../lib/claim.mjs';

const [moduleName, perRoundArg, roundsArg, ...moduleArgs] = process.argv.slice(2);
const perRound = Number(perRoundArg);
const rounds = Number(roundsArg);
/** Connections kept open at once, as autocannon's 50 in the loopback pairs. */
const CONNECTIONS = 50;
const VARIANTS = ['questkit', 'hand-written'];

// The loopback pairs' request, headers and body, as raw HTTP/1.1.
const REQUEST = Buffer.from(
  [
    `POST ${ROUTE} HTTP/1.1`,
    'host: 127.0.0.1',
    ...Object.entries(REQUEST_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${Buffer.byteLength(CLAIM_BODY)}`,
    '',
    CLAIM_BODY,
  ].join('\r\n'),
);

const { start } = await import(new URL(`../servers/${moduleName}.mjs`, import.meta.url).href);
const servers = {};
for (const variant of VARIANTS) servers[variant] = await start([...moduleArgs, variant]);

/** Answers `total` requests over in-memory connections; resolves with CPU µs per request. */
function drive(server, total) {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const cpuBefore = process.cpuUsage();
    const open = () => {
      let text = '';
      const socket = new Duplex({
        read() {},
        write(chunk, _encoding, callback) {
          text += chunk.toString('latin1');
          const answer = completeAnswer(text);
          if (answer !== null) {
            text = '';
            if (!answer.startsWith('HTTP/1.1 200') || !answer.includes(MESSAGE)) {
              reject(new Error(`unexpected answer: ${answer.slice(0, 200)}`));
              return callback();
            }
            answered++;
            if (answered === total) {
              const cpu = process.cpuUsage(cpuBefore);
              resolve((cpu.user + cpu.system) / total);
            } else if (sent < total) {
              sent++;
              // The next request on the next turn, as a client's would arrive.
              setImmediate(() => socket.push(REQUEST));
            }
          }
          callback();
        },
      });
      // What node:http asks of a socket beyond a stream.
      socket.remoteAddress = '127.0.0.1';
      socket.setTimeout = () => socket;
      socket.setNoDelay = () => socket;
      socket.setKeepAlive = () => socket;
      server.emit('connection', socket);
      sent++;
      socket.push(REQUEST);
    };
    for (let index = 0; index < Math.min(CONNECTIONS, total); index++) open();
  });
}

/** The first whole answer at the start of `text` (content-length or chunked), or null. */
function completeAnswer(text) {
  const headerEnd = text.indexOf('\r\n\r\n');
  if (headerEnd < 0) return null;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headerEnd));
  if (length) {
    const end = headerEnd + 4 + Number(length[1]);
    return text.length >= end ? text.slice(0, end) : null;
  }
  return text.endsWith('\r\n0\r\n\r\n') ? text : null;
}

// Warm-up, discarded: the first rounds of a process run up to twice as slow while the JIT
// settles, so three of them.
for (let round = 0; round < 3; round++) {
  for (const variant of VARIANTS) await drive(servers[variant].server, perRound);
}
const results = { questkit: [], 'hand-written': [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
  for (const variant of order)
    results[variant].push(await drive(servers[variant].server, perRound));
}
for (const variant of VARIANTS) await servers[variant].close();
process.stdout.write(`${JSON.stringify(results)}\n`);
