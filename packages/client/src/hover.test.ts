import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// What an editor shows on hover is the checker's `typeToString`: the client's answers must read
// as core's named types (`User`), not as the forty fields they expand to.

const source = `
import { createClient } from './index.js';
const client = createClient({ baseUrl: 'http://127.0.0.1:4000', subdomain: 'demo', apiKey: 'k' });
export const user = await client.getUser({ userId: 'u' });
export const bySocial = await client.lookupUser({ email: 'ada@example.com' });
export const quests = await client.listQuests();
export const webhooks = await client.listWebhooks();
export const webhook = webhooks.items[0];
export const eventTypes = await client.listWebhookEventTypes();
export const deliveries = await client.listWebhookDeliveries({ webhookId: 'w' });
export const created = await client.createWebhook({
  body: { name: 'n', uri: 'https://example.com/hook', active: true, events: ['JOINED_COMMUNITY'] },
});
export const community = await client.getCommunity();
`;

function hovers(): Map<string, string> {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const file = `${dir}hover-probe.ts`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (name) => name === file || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language);
  const program = ts.createProgram([file], options, host);
  const errors = ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(errors).toEqual([]);
  const checker = program.getTypeChecker();
  const probe = program.getSourceFile(file);
  if (!probe) throw new Error('the probe file was not compiled');
  const shown = new Map<string, string>();
  for (const statement of probe.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      shown.set(
        declaration.name.getText(probe),
        checker.typeToString(checker.getTypeAtLocation(declaration.name)),
      );
    }
  }
  return shown;
}

describe('hovers', () => {
  it("show core's named types for the client's answers", () => {
    const shown = hovers();
    expect(Object.fromEntries(shown)).toEqual({
      client: expect.any(String),
      user: 'User',
      bySocial: 'UserBySocial',
      quests: 'QuestListItem[]',
      webhooks: 'WebhookListResponse',
      webhook: 'Webhook',
      eventTypes: 'EventType[]',
      deliveries: 'WebhookDeliveryRecordList',
      created: 'WebhookCreateResponse',
      community: 'Community',
    });
  }, 120_000);
});
