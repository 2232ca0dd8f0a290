import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectFiles } from '../src/generate.js';
import { FRAMEWORKS, type ProjectOptions } from '../src/options.js';

// The templates are the projects: generated with every option, the template's name and its
// methods, a project is its framework's folder file for file, byte for byte, but for the option
// markers (whole lines, or a marker comment at a line's end), `_gitignore` and the versions.

const TEMPLATES = fileURLToPath(new URL('../templates', import.meta.url));
const MARKER_LINE = /^[ \t]*(?:\/\/|#|<!--)\s*@(?:if \w+|end)\b.*\n/gm;
const MARKER_END = /[ \t]*(?:\/\/|#|<!--)\s*@(?:connect|webhooks)(?:\s*-->)?$/gm;

async function folder(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/');
    files[path === '_gitignore' ? '.gitignore' : path] = await readFile(join(dir, path), 'utf8');
  }
  return files;
}

const full = (framework: ProjectOptions['framework']): ProjectOptions => ({
  name: 'my-quest-app',
  framework,
  requires: ['svc-connect'],
  connect: true,
  webhooks: true,
});

describe('each framework, generated with every option, is its template', () => {
  it.each(FRAMEWORKS)('%s: the same files, the same contents', async (framework) => {
    const template = await folder(join(TEMPLATES, framework));
    const generated = projectFiles(full(framework));
    expect(Object.keys(generated).sort()).toEqual(Object.keys(template).sort());
    for (const [path, text] of Object.entries(template)) {
      const expected = text.replace(MARKER_LINE, '').replace(MARKER_END, '');
      if (path === 'package.json') {
        // The @questkit packages are named `workspace:^` in the template, the release's range when generated.
        const released = JSON.parse(generated[path]!);
        const written = JSON.parse(expected);
        for (const field of ['dependencies', 'devDependencies']) {
          for (const [name, range] of Object.entries(written[field] as Record<string, string>)) {
            if (range === 'workspace:^') written[field][name] = released[field][name];
          }
        }
        expect(released).toEqual(written);
        expect(Object.values(released.devDependencies)).not.toContain('workspace:^');
      } else {
        expect(generated[path], path).toBe(expected);
      }
    }
  });
});

describe('every combination of options', () => {
  const combinations = FRAMEWORKS.flatMap((framework) =>
    [false, true].flatMap((connect) =>
      [false, true].map((webhooks) => ({ ...full(framework), connect, webhooks })),
    ),
  );

  it.each(
    combinations,
  )('$framework (connect $connect, webhooks $webhooks): no marker left, only files of its template', async (options) => {
    const template = await folder(join(TEMPLATES, options.framework));
    const generated = projectFiles({ ...options, name: 'other-name', requires: ['email'] });
    for (const [path, text] of Object.entries(generated)) {
      expect(Object.keys(template), path).toContain(path);
      expect(text, path).not.toMatch(/@(?:if (?:connect|webhooks)|end|connect|webhooks)\b/);
      expect(text, path).not.toContain('my-quest-app');
    }
    const has = (name: string) => Object.keys(generated).some((path) => path.includes(name));
    expect(has('connect.test.ts')).toBe(options.connect);
    expect(has('webhooks.test.ts')).toBe(options.webhooks);
    expect(generated['.env.example']!.includes('CONNECT_SECRET=')).toBe(options.connect);
    expect(generated['.env.example']!.includes('WEBHOOK_SECRET=')).toBe(options.webhooks);
  });
});
