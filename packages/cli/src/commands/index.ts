import type { Command } from '../command.js';
import { checkCommand } from './check.js';
import { checkWebhookCommand } from './check-webhook.js';
import { mockCommand } from './mock.js';

/**
 * Every `questkit` subcommand, in the order the help lists them. A new command is one file in
 * this folder exporting a {@link Command}, plus one entry here.
 */
export const COMMANDS: readonly Command[] = [checkCommand, checkWebhookCommand, mockCommand];
