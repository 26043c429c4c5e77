#!/usr/bin/env bash
# Tests hack/release.sh (run by `make test-release` and CI): bad input fails
# before any work; a dry run of a new version leaves this repository alone and
# prepares a clone whose seven published modules (the root, testenv, the
# explorer under testenv/explore, the two tools under cmd/, examples, hack/golangci-plugin) are tagged with the names
# the go command looks for, require each other at that version where they
# require each other at all (the root and the tools need no sibling and are
# released unchanged), carry no replace directive, and resolve from a proxy
# (release.sh checks that itself); a tag that exists stops it. It shares
# hack/install-test.sh's module cache, under a lock (hack/internal/releaseproxy):
# started together, they take turns (hack/release-concurrency-test.sh).
#
# The checks are hack/releaseroute's (test: check.go), run by hack/gorun.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" releaseroute -root "$root" test
