#!/usr/bin/env bash
# Prints the path of the Node binary CI tests for a major: the machine's own for 20, the pinned
# release of npm's `node` package for 22, 24 and 26. The one place that says which releases are
# tested.
#
# Usage: scripts/node-bin.sh <major>
#
# npx installs `node@<version>` once into npm's cache (~/.npm/_npx, and the tarballs in
# ~/.npm/_cacache); later runs find it there and download nothing, so keeping ~/.npm between CI
# runs keeps the binaries.
set -euo pipefail

major=$1
case "$major" in
  20)
    # The machine's Node, when it is a 20.
    node_bin=$(node -p process.execPath)
    if [ "$(node -p 'process.versions.node.split(".")[0]')" != 20 ]; then
      echo "node-bin: the machine's Node is not a 20 ($(node --version))" >&2
      exit 2
    fi
    echo "$node_bin"
    exit 0
    ;;
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  26) version=26.10.0 ;;
  *) echo "node-bin: no pinned Node $major (have 20, 22, 24, 26)" >&2; exit 2 ;;
esac
# npx only finds the binary: running under `npx -c` would hand the child npm's exec settings
# (npm_config_call, npm_config_package), which break the tests that call npx themselves.
npx --yes -p "node@${version}" node -p process.execPath
