import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  admittedAdvisories,
  advisoriesOf,
  floorVersions,
  projectRanges,
  publishedRanges,
  verdict,
} from '../../scripts/advised-ranges-lib.mjs';

// Attack of issue 49: the published ranges admitted versions with public advisories (hono
// ^4.10.0, peer ^4.6.0; @hono/node-server ^1.19.0). Judged here against advisories recorded in
// the shape `pnpm audit --json` reports them; `pnpm lint` asks the package manager itself.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/recorded-advisories.json', import.meta.url));
const recorded = advisoriesOf(JSON.parse(readFileSync(FIXTURE, 'utf8')));
const manifests = readdirSync(join(ROOT, 'packages')).flatMap((name) => {
  try {
    return [JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8'))];
  } catch {
    return [];
  }
});

describe('published version floors against public advisories', () => {
  it('no published range admits a version a recorded advisory names', () => {
    const ranges = publishedRanges(manifests);
    expect(ranges.map((r) => r.dep)).toEqual(
      expect.arrayContaining(['hono', '@hono/node-server', 'fastify', 'express', 'zod', 'jose']),
    );
    expect(admittedAdvisories(ranges, recorded)).toEqual([]);
  });

  it("the examples' and create-questkit templates' ranges admit no recorded advisory either", () => {
    const projects = ['examples', 'packages/create-questkit/templates'].flatMap((parent) =>
      readdirSync(join(ROOT, parent)).flatMap((name) => {
        try {
          const text = readFileSync(join(ROOT, parent, name, 'package.json'), 'utf8');
          return [{ label: `${parent}/${name}`, manifest: JSON.parse(text) }];
        } catch {
          return [];
        }
      }),
    );
    const ranges = projectRanges(projects);
    expect(ranges.map((r) => `${r.pkg} ${r.dep}`)).toEqual(
      expect.arrayContaining([
        'packages/create-questkit/templates/fastify fastify',
        'packages/create-questkit/templates/express express',
        'examples/fastify fastify',
      ]),
    );
    expect(admittedAdvisories(ranges, recorded)).toEqual([]);
    // The template's floor before: a generated Fastify project could install an advised fastify.
    const before = [
      { label: 'templates/fastify', manifest: { dependencies: { fastify: '^5.6.0' } } },
    ];
    expect(admittedAdvisories(projectRanges(before), recorded)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('templates/fastify dependencies fastify "^5.6.0"'),
      ]),
    );
  });

  it('flags the floors the packages published before', () => {
    const before = [
      { name: '@questkit/hono', peerDependencies: { hono: '^4.6.0' } },
      {
        name: '@questkit/mock-platform',
        dependencies: { hono: '^4.10.0', '@hono/node-server': '^1.19.0' },
      },
      { name: '@questkit/fastify', peerDependencies: { fastify: '^5.0.0' } },
    ];
    const problems = admittedAdvisories(publishedRanges(before), recorded);
    expect(
      problems.some((p) => p.startsWith('@questkit/hono peerDependencies hono "^4.6.0"')),
    ).toBe(true);
    expect(problems.some((p) => p.includes('@hono/node-server "^1.19.0" admits <1.19.15'))).toBe(
      true,
    );
    expect(problems.some((p) => p.includes('fastify "^5.0.0"'))).toBe(true);
  });

  it('audits the lowest version of each alternative of a range', () => {
    expect(floorVersions('^4.22.3 || ^5.3.0')).toEqual(['4.22.3', '5.3.0']);
    expect(floorVersions('>=1.2.0 <2')).toEqual(['1.2.0']);
  });

  it('says NOT CHECKED when the audit cannot run, and fails then only when required', () => {
    const offline = verdict({ problems: [], auditError: 'ENOTFOUND', required: false, checked: 9 });
    expect(offline.code).toBe(0);
    expect(offline.lines[0]).toMatch(/^advised-ranges: NOT CHECKED: .*ENOTFOUND/);
    expect(offline.lines.join('\n')).not.toMatch(/checked; none admits/);
    expect(
      verdict({ problems: [], auditError: 'ENOTFOUND', required: true, checked: 9 }).code,
    ).toBe(1);
  });

  it('runs as a script on a saved audit: exit 1 naming the range, 0 when none is admitted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'questkit-audit-'));
    try {
      const script = join(ROOT, 'scripts', 'advised-ranges.mjs');
      const ok = spawnSync(process.execPath, [script, '--audit-json', FIXTURE], {
        encoding: 'utf8',
      });
      expect(ok.status).toBe(0);
      expect(ok.stdout).toMatch(/published range\(s\) checked; none admits/);
      // An advisory for every hono below 5: the published floors admit it.
      const future = join(dir, 'audit.json');
      writeFileSync(
        future,
        JSON.stringify({
          advisories: {
            1: {
              id: 1,
              module_name: 'hono',
              github_advisory_id: 'GHSA-test-test-test',
              vulnerable_versions: '<5.0.0',
              patched_versions: '>=5.0.0',
              title: 'a future advisory',
            },
          },
        }),
      );
      const bad = spawnSync(process.execPath, [script, '--audit-json', future], {
        encoding: 'utf8',
      });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(
        /@questkit\/mock-platform dependencies hono "\^4\.\d+\.\d+" admits <5\.0\.0/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
