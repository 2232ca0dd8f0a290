// An App Router route handler as the Next.js docs write one: it exports POST only, so Next.js
// answers any other method with 405 and an empty body. The platform only ever sends POST.

export async function POST(request) {
  if (request.headers.get('x-api-key') !== process.env.QUEST_API_KEY) {
    return Response.json({ message: 'Invalid API key.' }, { status: 400 });
  }
  let claim;
  try {
    claim = await request.json();
  } catch {
    return Response.json({ message: 'Invalid JSON.' }, { status: 400 });
  }
  if (typeof claim?.userId !== 'string') {
    return Response.json({ message: 'Missing userId.' }, { status: 400 });
  }
  return Response.json({ message: 'Verified, enjoy your reward!' });
}
