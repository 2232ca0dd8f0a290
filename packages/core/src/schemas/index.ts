export * from './community.js';
export * from './limits.js';
export * from './queries.js';
export * from './quests.js';
export * from './rich-text.js';
export * from './users.js';
export * from './verification.js';
export * from './webhooks.js';
