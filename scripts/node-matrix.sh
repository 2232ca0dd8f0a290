#!/usr/bin/env bash
# Runs test projects under another Node major, with the binary of npm's `node` package, and writes
# vitest's JSON report to .vitest-report.node<major>.json for scripts/test-summary.mjs to add up.
# The build and vitest's install stay those of the machine's Node: only the test run changes Node.
#
# Usage: scripts/node-matrix.sh <major> <vitest project>... [-- <vitest filter>...]
#
# The versions are pinned here, the one place that says which releases CI tests. npx installs
# `node@<version>` once into npm's cache (~/.npm/_npx, and the tarballs in ~/.npm/_cacache); later
# runs find it there and download nothing, so keeping ~/.npm between CI runs keeps the binaries.
# The binary goes first on PATH, so tests that spawn `node` get the same version.
set -euo pipefail
cd "$(dirname "$0")/.."

major=$1
shift
case "$major" in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  *) echo "node-matrix: no pinned Node $major (have 22, 24)" >&2; exit 2 ;;
esac

projects=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do projects+=(--project "$1"); shift; done
if [ $# -gt 0 ]; then shift; fi

report=".vitest-report.node${major}.json"
rm -f "$report"
echo "node-matrix: Node ${version}: ${projects[*]} $*"
started=$SECONDS
status=0
# npx only finds the binary: running the tests under `npx -c` would hand them npm's exec settings
# (npm_config_call, npm_config_package), which break the tests that call npx themselves.
node_bin=$(npx --yes -p "node@${version}" node -p process.execPath)
bin_dir=$(mktemp -d)
trap 'rm -rf "$bin_dir"' EXIT
ln -s "$node_bin" "$bin_dir/node"
PATH="$bin_dir:$PATH" node node_modules/vitest/vitest.mjs run "${projects[@]}" "$@" \
  "--outputFile.json=${report}" || status=$?
echo "node-matrix: Node ${version} took $((SECONDS - started)) s (exit ${status})"
exit "$status"
