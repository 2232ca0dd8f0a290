#!/usr/bin/env bash
# Runs tests under another Node major, with the binary of npm's `node` package, and writes
# vitest's JSON report to .vitest-report.node<major>.json for scripts/test-summary.mjs to add up.
# The build and vitest's install stay those of the machine's Node: only the test run changes Node.
#
# Usage: scripts/node-matrix.sh <major>                       the Node-dependent suites (below)
#        scripts/node-matrix.sh <major> <vitest project>... [-- <vitest filter>...]
#
# The binary comes from scripts/node-bin.sh (pinned there, cached by npx) and goes first on PATH, so
# tests that spawn `node` get the same version.
set -euo pipefail
cd "$(dirname "$0")/.."

# The suites whose behaviour depends on Node: its HTTP server and client, streams and timers, the
# other runtimes, the quick starts. Chosen by path, so that a new test file in one of these places,
# or any test file named `*.node.test.ts`, joins the matrix with no list to edit. The rest (schemas,
# signing, the judge's rules, the mock's logic, the client, the examples' own tests, the attack
# suites) runs once, on the machine's Node.
NODE_DEPENDENT_PATHS=(
  packages/express/ packages/fastify/ packages/hono/ # the adapters: each framework on Node's HTTP
  # core's front door (body reads, drains, deadlines) and its Node listener
  packages/core/src/front-door/ packages/core/src/verifier/door packages/core/src/node-listener
  runtimes/src/ # the Worker example on workerd (miniflare), Bun and Deno
  test/src/ # end to end: examples, the mock, packed tarballs installed as quick starts
  .node.test. # anywhere else, by name
)

major=$1
shift

projects=()
filters=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do projects+=(--project "$1"); shift; done
if [ $# -gt 0 ]; then shift; filters=("$@"); fi
# Path filters alone: every project whose files match runs (its global setup only then).
if [ ${#projects[@]} -eq 0 ] && [ ${#filters[@]} -eq 0 ]; then
  filters=("${NODE_DEPENDENT_PATHS[@]}")
fi

report=".vitest-report.node${major}.json"
rm -f "$report"
node_bin=$(scripts/node-bin.sh "$major")
version=$("$node_bin" --version)
bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
ln -s "$node_bin" "$bin_dir/node"
echo "node-matrix: Node ${version}: ${projects[*]} ${filters[*]}"
started=$SECONDS
status=0
PATH="$bin_dir:$PATH" node node_modules/vitest/vitest.mjs run "${projects[@]}" "${filters[@]}" \
  "--outputFile.json=${report}" || status=$?
echo "node-matrix: Node ${version} took $((SECONDS - started)) s (exit ${status})"
exit "$status"
