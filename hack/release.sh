#!/usr/bin/env bash
# Releases every published module of this repository at one version,
# consistently. Dry run unless --apply; it never pushes.
#
#   hack/release.sh v0.2.0                  # dry run: prints the release commit and tags
#   hack/release.sh v0.2.0 --keep DIR       # dry run, and leave the prepared clone in DIR
#   hack/release.sh v0.2.0 --apply          # CHANGELOG.md's section and make test-compat-all
#                                           # first, then fetch the release commit and tags into
#                                           # this repository
#
# The route is the Go program hack/releaseroute (its doc says the steps:
# requirements, go.work and install docs moved in a clone of HEAD, each
# module tidied and resolved from a proxy of the clone under the release
# cache's lock, the release commit and the tags; its tests, in make test,
# check the version, the tags, the modules table against the checkout's
# go.mod files and the edits), run by hack/gorun.sh on this checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" releaseroute -root "$root" release "$@"
