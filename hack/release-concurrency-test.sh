#!/usr/bin/env bash
# Two hack/release.sh runs and an install test, started at once on one
# machine, must all pass (make test-release-concurrent). They share
# hack/internal/releaseproxy's module cache, from which each drops the
# version of this repository's modules it serves before it builds from its
# own proxy; without the cache's lock one run deleted them under another
# ("cannot find package" for
# patchertest, for the generator's templates) and the release failed.
#
#   hack/release-concurrency-test.sh          # the install test is hack/install-test.sh
#   RELEASE_CONCURRENCY_INSTALL=quick hack/release-concurrency-test.sh
#
# The runs: a dry run with --keep into a scratch folder; an --apply in a
# scratch clone of this checkout (it fast-forwards the clone, never this
# repository); and hack/install-test.sh, or with
# RELEASE_CONCURRENCY_INSTALL=quick a short consumer of the same cache (go
# get the runtime and patchertest, list their imports, go install
# statuspatch-gen and run it), which exercises the same race in seconds
# instead of the install test's minutes. Each run's output is kept and
# printed on failure; it prints how long each took and how long the whole
# took. The route is hack/releaseroute's (concurrent.go), run by
# hack/gorun.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" releaseroute -root "$root" concurrent
