import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

const FRAMEWORKS = ['express', 'fastify', 'hono', '@hono/', 'koa', 'undici'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    // Test files and their helpers (*.testkit.ts) run under Node; only shipped sources count.
    return /\.ts$/.test(entry.name) && !/\.(test|testkit)\.ts$/.test(entry.name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g),
  ];
  return specifiers.map((match) => match[1]!);
}

describe('@questkit/core is Web-standard', () => {
  const files = sourceFiles(new URL('.', import.meta.url).pathname);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('imports nothing from node: or a framework, only its own files, zod (classic and mini) and jose', () => {
    const outside = files.flatMap((file) =>
      importsOf(file)
        // Its own files, by path or by the package's `imports` map (`#claim-schema`).
        .filter((specifier) => !specifier.startsWith('.') && !Object.hasOwn(pkg.imports, specifier))
        .filter((specifier) => !['zod', 'zod/mini', 'jose'].includes(specifier))
        .map((specifier) => `${file}: ${specifier}`),
    );
    expect(outside).toEqual([]);
    const forbidden = files.flatMap((file) =>
      importsOf(file).filter(
        (s) => s.startsWith('node:') || FRAMEWORKS.some((f) => s.startsWith(f)),
      ),
    );
    expect(forbidden).toEqual([]);
  });

  it('uses no Node globals (process, Buffer, require) outside comments', () => {
    const code = (file: string) =>
      readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const offenders = files.filter((file) => /\b(process\.|Buffer\.|require\()/.test(code(file)));
    expect(offenders).toEqual([]);
  });

  it('depends on zod and jose only', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['jose', 'zod']);
  });
});
