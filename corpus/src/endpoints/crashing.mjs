// An endpoint written the Express 4 way: async work whose promise nobody returns or catches. A
// rejection there is unhandled, and Node exits: the server dies on the request that threw. It
// runs in a process of its own (started by the corpus test) since it really dies.
//
//   node crashing.mjs <without-wallet | wrong-key> <api key>
// prints the port it listens on, on 127.0.0.1.
import express from 'express';

const [mode, apiKey] = process.argv.slice(2);

// A database lookup, as the app has one.
const findMember = async (wallet) => (wallet.startsWith('0x') ? null : null);

// The key check as a promise chain; in `wrong-key` mode its rejection is never caught.
const checkKey = async (req) => {
  if (req.get('x-api-key') !== apiKey) throw new Error('Invalid API key');
};

const app = express();
app.use(express.json());
app.post('/verify', (req, res) => {
  if (mode === 'wrong-key') {
    checkKey(req).then(() => res.status(400).json({ message: 'Not yet complete.' }));
    return;
  }
  if (req.get('x-api-key') !== apiKey) {
    res.status(400).json({ message: 'Invalid API key.' });
    return;
  }
  // Written for a wallet task: a claim without accounts.wallet throws inside the promise.
  Promise.resolve()
    .then(() => findMember(req.body.accounts.wallet.toLowerCase()))
    .then((member) =>
      res.status(member ? 200 : 400).json({ message: member ? 'Verified.' : 'No purchase yet.' }),
    );
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
