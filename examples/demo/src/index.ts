/**
 * @module
 * The questkit demo: starts the mock platform and the example apps on free loopback ports and
 * tells the story of a quest, step by step. `pnpm demo` at the repository root runs it.
 */
export {
  type Browser,
  type BrowserOptions,
  createBrowser,
  type Hop,
  type HtmlForm,
  type Page,
  readForm,
} from './browser.js';
export { type Answer, createPlatformClient, type PlatformClient } from './platform-client.js';
export { type Received, startWebhookReceiver, type WebhookReceiver } from './receiver.js';
export { createReporter, quote, type Reporter, showUrl } from './reporter.js';
export { type DemoServers, startDemoServers } from './servers.js';
export { runStory, STORY_STEPS } from './story.js';
