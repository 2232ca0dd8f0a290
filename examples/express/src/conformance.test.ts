import { describeConformance } from '@questkit/example-tests';
import { DEFAULT_QUEST_IDS } from './quests.js';
import { startServer } from './server.js';

// The platform's checks and questkit's verdicts, as a community's CI would run them: the
// conformance battery over real HTTP, for one of the example's quests.
describeConformance(startServer, Object.values(DEFAULT_QUEST_IDS)[0]!);
