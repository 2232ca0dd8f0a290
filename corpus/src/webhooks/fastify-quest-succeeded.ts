import type { Server } from 'node:http';
import Fastify from 'fastify';

// A Fastify service that acts only on QUEST_SUCCEEDED, as most real receivers do: it checks the
// secret in the body, looks the member up by `data.user` (their email, else their id) and
// credits `data.quest` to them; every other event type gets 200 and nothing happens.

/** A quest credited to a member by the receiver. */
export interface Credit {
  member: string;
  questId: string;
  points: number;
}

export function fastifyQuestSucceededReceiver(
  secret: () => string,
  credits: Credit[],
): Promise<Server> {
  const app = Fastify();
  app.post('/hooks/platform', async (request, reply) => {
    const body = request.body as {
      secret?: unknown;
      type?: unknown;
      data?: {
        user?: { id: string; email: string | null };
        quest?: { id: string; xp: number | null };
      };
    };
    if (body.secret !== secret()) return reply.code(401).send({ detail: 'bad secret' });
    if (body.type !== 'QUEST_SUCCEEDED') return { status: 'ignored' };
    const user = body.data?.user;
    const quest = body.data?.quest;
    if (!user || !quest) return reply.code(422).send({ detail: 'missing user or quest' });
    credits.push({ member: user.email ?? user.id, questId: quest.id, points: quest.xp ?? 0 });
    return { status: 'credited' };
  });
  return app.listen({ port: 0, host: '127.0.0.1' }).then(() => app.server);
}
