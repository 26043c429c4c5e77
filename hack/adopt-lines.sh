#!/usr/bin/env bash
# Adoption at each older supported line, from a module proxy built from this
# checkout (as a release would serve it): a scratch module pinned the way
# operators pin (its go line, controller-runtime and k8s.io by require and by
# replace) runs the README's `go get` lines with that line's Go; then no
# requirement it had moves, its go line and replace directives stay as they
# were, and it builds with the runtime in it. The route is
# hack/installroute's adopt (adopt.go).
#
#   hack/adopt-lines.sh            # every line older than the workspace's
#   hack/adopt-lines.sh LINE...    # the named ones (hack/lines.txt's lines,
#                                  # or a selector of hack/lines.sh)
#
# make test-install runs it after hack/install-test.sh, which takes the
# install line all the way (the tools, generate, lint, tests on testenv);
# hack/compat.sh runs testenv's and the generated code's tests at every line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" installroute adopt -root "$root" "$@"
