#!/usr/bin/env bash
# Compiles a module's packages and their test dependencies into the Go build
# cache, saying what it compiles and how far it got ("compiled N/M
# packages"), so that the first `make test` or `make demo` on a cold cache
# is not minutes of silence. A warm cache makes it a second or two. It runs
# testenv-assets warm, the command docs/testenv.md gives users for their
# first test run, built from this checkout.
#
#   hack/warm-cache.sh testenv        # a module directory: its ./...
#   hack/warm-cache.sh . -race ./patcher/...   # then warm's flags and packages
set -euo pipefail
dir=${1:?usage: warm-cache.sh MODULE_DIR [-race] [PACKAGES]}
shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tool is built in the workspace (GOWORK empty: found from the folder)
# whatever GOWORK the caller gives the module it warms (GOWORK=off: the root
# module at the floor it requires, as make test-root tests it).
(cd "$root/testenv" && GOWORK= go build -o "$tmp/testenv-assets" ./cmd/testenv-assets)
cd "$dir"
"$tmp/testenv-assets" warm "$@"
