import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IdentificationMethod } from '@questkit/core';
import { type Framework, type ProjectOptions, UsageError } from './options.js';
import { versions } from './versions.js';

// The templates are real projects, one folder per framework, written with --connect --webhooks,
// the name `my-quest-app` and `REQUIRES = ['svc-connect']`. A project is its framework's folder
// with the lines of an option it lacks left out and those few values replaced.
const TEMPLATES = fileURLToPath(new URL('../templates', import.meta.url));

/** The name the templates are written with. */
export const TEMPLATE_NAME = 'my-quest-app';

type Option = 'connect' | 'webhooks';

/** The files only an option brings (the same path in every framework that has it). */
const OPTION_FILES: Record<Option, readonly string[]> = {
  connect: [
    'src/session.ts',
    'lib/session.ts',
    'src/login.ts',
    'lib/login.ts',
    'test/connect.test.ts',
    'test/login.test.ts',
    'app/api/connect/route.ts',
    'app/login/route.ts',
  ],
  webhooks: [
    'src/webhooks.ts',
    'lib/webhooks.ts',
    'test/webhooks.test.ts',
    'app/api/webhooks/route.ts',
    'instrumentation.ts',
  ],
};

/** The package.json scripts only an option brings. */
const OPTION_SCRIPTS: Record<Option, readonly string[]> = {
  connect: [],
  webhooks: ['check:webhook'],
};

// `// @if connect` … `// @end` (or `#`, `<!--`) around lines, `// @connect` at the end of one.
const BLOCK = /^\s*(?:\/\/|#|<!--)\s*@(if (connect|webhooks)|end)\b.*$/;
const TRAILING = /\s*(?:\/\/|#|<!--)\s*@(connect|webhooks)(?:\s*-->)?$/;

/** What the sample `verify` looks a member up by: the first required method, else the user id. */
const LOOKUPS: Record<IdentificationMethod | 'none', { expression: string; sample: string }> = {
  email: { expression: 'accounts.email.trim().toLowerCase()', sample: 'ada@example.com' },
  wallet: {
    expression: 'accounts.wallet.toLowerCase()',
    sample: '0x52908400098527886e0f7030069857d2e4169ee7',
  },
  discord: { expression: 'accounts.discord.id', sample: '80351110224678912' },
  twitter: { expression: 'accounts.twitter.id', sample: '2244994945' },
  'svc-connect': { expression: "accounts['svc-connect']", sample: 'member-1' },
  none: { expression: 'claim.userId', sample: 'member-1' },
};

/** The accounts of the member who did the quest (`ADA` of the generated tests), by method. */
const MEMBER_ACCOUNTS: Record<IdentificationMethod, unknown> = {
  email: 'ada@example.com',
  wallet: '0x52908400098527886e0f7030069857d2e4169ee7',
  discord: { id: '80351110224678912', handle: 'ada' },
  twitter: { id: '2244994945', username: 'ada' },
  'svc-connect': 'member-1',
};

/** Every file of a template folder, by path relative to it (`/` separators). */
function templateFiles(framework: Framework): string[] {
  const root = join(TEMPLATES, framework);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

/** The lines of `text` that belong to the options chosen, without the markers. */
function keepOptions(text: string, options: ProjectOptions): string {
  const kept: string[] = [];
  const open: Option[] = [];
  for (const line of text.split('\n')) {
    const block = BLOCK.exec(line);
    if (block) {
      if (block[2]) open.push(block[2] as Option);
      else open.pop();
      continue;
    }
    const trailing = TRAILING.exec(line);
    const needs = trailing ? [...open, trailing[1] as Option] : open;
    if (needs.every((option) => options[option])) {
      kept.push(trailing ? line.slice(0, trailing.index) : line);
    }
  }
  return kept.join('\n');
}

/** The plain replacements of a project: its name, its identification methods. */
function replacements(path: string, options: ProjectOptions): [string, string][] {
  const lookup = LOOKUPS[options.requires[0] ?? 'none'];
  const bare = options.name.replace(/^@[^/]+\//, '');
  const methods = options.requires.join(',');
  switch (path) {
    case 'src/quest.ts':
    case 'lib/quest.ts':
      return [
        [
          "['svc-connect'] as const",
          `[${options.requires.map((m) => `'${m}'`).join(', ')}] as const`,
        ],
        ["new Set(['member-1'])", `new Set(['${lookup.sample}'])`],
        ["accounts['svc-connect'])", `${lookup.expression})`],
        ...(options.requires.length === 0
          ? ([['{ accounts, signal }', '{ claim, signal }']] as [string, string][])
          : []),
      ];
    case 'scripts/check.mjs':
      return [["const IDENTIFICATIONS = 'svc-connect';", `const IDENTIFICATIONS = '${methods}';`]];
    case 'wrangler.toml':
      return [[`name = "${TEMPLATE_NAME}"`, `name = "${bare}"`]];
    case 'README.md':
      return [
        ...((options.requires.length > 0
          ? [['tick **svc-connect**', `tick **${options.requires.join('**, **')}**`]]
          : [
              [
                'tick **svc-connect**: the same methods as `REQUIRES` in',
                'tick none: `REQUIRES` in',
              ],
              [
                '. A claim without one of them is answered 400 asking the member to link it, before your code runs.',
                " is empty, and `verify` decides by the member's platform id (`claim.userId`). Tick methods there and here together when you need the member's accounts.",
              ],
            ]) as [string, string][]),
        [
          `--accounts '{"svc-connect":"member-1"}'`,
          options.requires.length > 0
            ? `--accounts '${JSON.stringify(Object.fromEntries(options.requires.map((m) => [m, MEMBER_ACCOUNTS[m]])))}'`
            : '--user-id member-1',
        ],
        [TEMPLATE_NAME, options.name],
      ];
    case '.github/workflows/ci.yml':
    case 'package.json':
      return [
        options.requires.length > 0
          ? ["--identifications 'svc-connect'", `--identifications '${methods}'`]
          : ["            --identifications 'svc-connect' \\\n", ''],
        [TEMPLATE_NAME, options.name],
      ];
    default:
      return [[TEMPLATE_NAME, options.name]];
  }
}

/** `package.json`: the @questkit versions released with the generator (or `--packages`' tarballs), only the packages used. */
function manifest(text: string, files: Record<string, string>, options: ProjectOptions): string {
  const pkg = JSON.parse(text) as Record<string, Record<string, string>>;
  const released = options.packages ?? versions();
  const sources = Object.values(files).join('\n');
  for (const option of Object.keys(OPTION_SCRIPTS) as Option[]) {
    if (options[option]) continue;
    for (const script of OPTION_SCRIPTS[option]) delete pkg.scripts![script];
  }
  for (const field of ['dependencies', 'devDependencies']) {
    for (const [name, range] of Object.entries(pkg[field] ?? {})) {
      if (range !== 'workspace:^') continue;
      // A @questkit library no file imports (the mock platform without connect or webhooks) is left out.
      if (name.startsWith('@questkit/') && !sources.includes(`from '${name}`)) {
        delete pkg[field]![name];
        continue;
      }
      const version = released[name];
      if (!version && options.packages) {
        throw new UsageError(`--packages: no tarball of ${name}, which the project uses`);
      }
      if (!version) throw new Error(`create-questkit: no released version of ${name}`);
      pkg[field]![name] = version;
    }
  }
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The files of a project, by path relative to its folder, from its framework's template. */
export function renderTemplate(options: ProjectOptions): Record<string, string> {
  const root = join(TEMPLATES, options.framework);
  const files: Record<string, string> = {};
  for (const source of templateFiles(options.framework)) {
    const needs = (Object.keys(OPTION_FILES) as Option[]).filter((option) =>
      OPTION_FILES[option].includes(source),
    );
    if (!needs.every((option) => options[option])) continue;
    const path = source === '_gitignore' ? '.gitignore' : source;
    let text = keepOptions(readFileSync(join(root, source), 'utf8'), options);
    for (const [from, to] of replacements(path, options)) text = text.replaceAll(from, to);
    files[path] = text;
  }
  files['package.json'] = manifest(files['package.json']!, files, options);
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}
