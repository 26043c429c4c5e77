#!/usr/bin/env bash
# Runs docs/kubebuilder.md's "Steps" as a new user reads them (make
# test-newcomer), in a scratch operator shaped like a kubebuilder v4
# scaffold at one supported line of hack/lines.txt, or at several, two at a
# time (NEWCOMER_JOBS). The route is hack/installroute's newcomer (newcomer.go:
# its doc lists the steps; scaffold.go the scaffold).
#
#   hack/newcomer-test.sh [LINE]     # LINE: a line of hack/lines.txt, or a
#                                    # selector of hack/lines.sh (default:
#                                    # install, the install line)
#   hack/newcomer-test.sh LINE LINE...  or  hack/newcomer-test.sh all
#
# NEWCOMER_ENVTEST_K8S_VERSION: the Kubernetes release of step 5b's envtest
# binaries at every line (line: each line's own); unset, step 5b runs only
# at the line whose own release make test-assets builds. CONTROLLER_GEN
# overrides bin/controller-gen.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" installroute newcomer -root "$root" "$@"
