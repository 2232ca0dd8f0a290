// @if connect
import { DEMO } from '@questkit/mock-platform';

// @end
/** The environment the tests start the app with: test values, not secrets. */
export const TEST_ENV: Record<string, string> = {
  QUEST_API_KEY: 'test-task-key',
  // @if connect
  // The mock platform's demo community signs its connect redirects with this secret.
  CONNECT_SECRET: DEMO.connectSecret,
  SESSION_SECRET: 'test-session-secret-0123456789abcdef',
  // @end
  WEBHOOK_SECRET: 'whsec_test', // @webhooks
};
