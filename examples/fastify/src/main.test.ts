import { describeStart } from '@questkit/example-tests';

// `pnpm start` as a user runs it; the test itself is shared by the framework examples.
describeStart({
  packageDir: new URL('..', import.meta.url),
  packageName: '@questkit/example-fastify',
  questIdVariable: 'REGISTERED_QUEST_ID',
  accounts: { email: 'ada@example.com' },
});
