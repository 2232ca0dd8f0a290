// The logic of advised-ranges.mjs, apart from its I/O so that tests can give it data: which
// version ranges the published packages declare, which versions to audit for them, and which
// ranges admit a version that an advisory (as `pnpm audit --json` reports it) names.
import semver from 'semver';

const KINDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];

/** Every third-party range a published manifest declares: { pkg, kind, dep, range }. */
export function publishedRanges(manifests) {
  const ranges = [];
  for (const manifest of manifests) {
    if (manifest.private === true) continue;
    for (const kind of KINDS) {
      for (const [dep, range] of Object.entries(manifest[kind] ?? {})) {
        if (range.startsWith('workspace:') || dep.startsWith('@questkit/')) continue;
        if (dep.startsWith('@types/')) continue;
        ranges.push({ pkg: manifest.name, kind, dep, range });
      }
    }
  }
  return ranges;
}

/**
 * The third-party ranges of the projects users start from (the examples, create-questkit's
 * templates), private as they are: `{ label, manifest }` each; `dependencies` and `peerDependencies`.
 */
export function projectRanges(projects) {
  const ranges = [];
  for (const { label, manifest } of projects) {
    for (const kind of ['dependencies', 'peerDependencies']) {
      for (const [dep, range] of Object.entries(manifest[kind] ?? {})) {
        if (range.startsWith('workspace:') || range.startsWith('file:')) continue;
        if (dep.startsWith('@questkit/') || dep === 'questkit' || dep.startsWith('@types/'))
          continue;
        ranges.push({ pkg: label, kind, dep, range });
      }
    }
  }
  return ranges;
}

/** The lowest version of each `||` alternative of a range: where an install may land lowest. */
export function floorVersions(range) {
  return range
    .split('||')
    .map((part) => semver.minVersion(part.trim())?.version)
    .filter((version) => version !== undefined);
}

/** The advisories of a `pnpm audit --json` answer: { id, module, vulnerable, patched, title, url }. */
export function advisoriesOf(audit) {
  if (!audit || typeof audit !== 'object' || !audit.advisories) {
    throw new TypeError('not an audit report: no "advisories" object');
  }
  return Object.values(audit.advisories).map((advisory) => ({
    id: advisory.github_advisory_id ?? String(advisory.id),
    module: advisory.module_name,
    vulnerable: advisory.vulnerable_versions,
    patched: advisory.patched_versions ?? '',
    title: advisory.title ?? '',
    url: advisory.url ?? '',
  }));
}

/** The ranges that admit a version an advisory names, one line each. */
export function admittedAdvisories(ranges, advisories) {
  const problems = [];
  for (const { pkg, kind, dep, range } of ranges) {
    for (const advisory of advisories) {
      if (advisory.module !== dep) continue;
      if (!semver.intersects(range, advisory.vulnerable, { includePrerelease: false })) continue;
      problems.push(
        `${pkg} ${kind} ${dep} "${range}" admits ${advisory.vulnerable} (${advisory.id}: ${advisory.title}; patched ${advisory.patched || 'in no version'})`,
      );
    }
  }
  return problems;
}

/**
 * The verdict: problems fail; an audit that could not run (offline, the registry refusing) is
 * said loudly and fails only when `required` (a release), never reported as checked.
 */
export function verdict({ problems, auditError, required, checked }) {
  if (auditError) {
    const line = `advised-ranges: NOT CHECKED: the package manager's audit could not run (${auditError}). Published ranges were not checked against advisories.`;
    return required
      ? { code: 1, lines: [line, 'advised-ranges: QUESTKIT_REQUIRE_AUDIT is set: failing.'] }
      : {
          code: 0,
          lines: [
            line,
            'advised-ranges: set QUESTKIT_REQUIRE_AUDIT=1 to fail instead (release does).',
          ],
        };
  }
  if (problems.length > 0) {
    return {
      code: 1,
      lines: [
        `advised-ranges: ${problems.length} published range(s) admit advised versions; raise their floors:`,
        ...problems.map((problem) => `  ${problem}`),
      ],
    };
  }
  return {
    code: 0,
    lines: [
      `advised-ranges: ${checked} published range(s) checked; none admits an advised version.`,
    ],
  };
}
