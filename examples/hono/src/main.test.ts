import { describeStart } from '@questkit/example-tests';

// `pnpm start` as a user runs it; the test itself is shared by the framework examples.
describeStart({
  packageDir: new URL('..', import.meta.url),
  packageName: '@questkit/example-hono',
  questIdVariable: 'DISCORD_QUEST_ID',
  accounts: { discord: { id: '80351110224678912', handle: 'ada.lovelace' } },
});
