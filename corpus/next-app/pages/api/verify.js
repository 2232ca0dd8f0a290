// A Pages Router API route behind Next.js's own body parser (on by default): a body that is not
// JSON, an empty one or one over 1 MB is answered by the parser before this code runs.

export default function handler(req, res) {
  if (req.method !== 'POST') {
    res.status(405).json({ message: 'Method not allowed.' });
    return;
  }
  if (req.headers['x-api-key'] !== process.env.QUEST_API_KEY) {
    res.status(400).json({ message: 'Invalid API key.' });
    return;
  }
  const userId = req.body?.userId;
  if (typeof userId !== 'string') {
    res.status(400).json({ message: 'Missing userId.' });
    return;
  }
  res.status(200).json({ message: 'Verified, enjoy your reward!' });
}
