#!/usr/bin/env bash
# Runs test projects under another Node major, with the binary of npm's `node` package, and writes
# vitest's JSON report to .vitest-report.node<major>.json for scripts/test-summary.mjs to add up.
# The build and vitest's install stay those of the machine's Node: only the test run changes Node.
#
# Usage: scripts/node-matrix.sh <major> <vitest project>... [-- <vitest filter>...]
#
# The binary comes from scripts/node-bin.sh (pinned there, cached by npx) and goes first on PATH, so
# tests that spawn `node` get the same version.
set -euo pipefail
cd "$(dirname "$0")/.."

major=$1
shift

projects=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do projects+=(--project "$1"); shift; done
if [ $# -gt 0 ]; then shift; fi

report=".vitest-report.node${major}.json"
rm -f "$report"
node_bin=$(scripts/node-bin.sh "$major")
version=$("$node_bin" --version)
bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
ln -s "$node_bin" "$bin_dir/node"
echo "node-matrix: Node ${version}: ${projects[*]} $*"
started=$SECONDS
status=0
PATH="$bin_dir:$PATH" node node_modules/vitest/vitest.mjs run "${projects[@]}" "$@" \
  "--outputFile.json=${report}" || status=$?
echo "node-matrix: Node ${version} took $((SECONDS - started)) s (exit ${status})"
exit "$status"
