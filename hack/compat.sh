#!/usr/bin/env bash
# The compatibility matrix (docs/compatibility.md): what users import, built
# and tested at every controller-runtime / k8s.io / Go line statuspatch
# supports, each line with its own Go toolchain (from the module proxy).
#
#   hack/compat.sh update         regenerate hack/compat/<line>/*.mod from
#                                 hack/lines.txt
#   hack/compat.sh test [LINE..]  test every line, or the named ones (a line,
#                                 or a selector of hack/lines.sh), and "below"
#   hack/compat.sh build [LINE..] compile what test compiles, running no test
#
# The route is the Go program hack/compatroute (its doc says what runs at
# each line; its tests, in make test, check the go commands it plans), run
# from the repository's root by hack/gorun.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
exec hack/gorun.sh compatroute "$@"
