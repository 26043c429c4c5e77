#!/usr/bin/env bash
# docs/kubebuilder.md's "Steps" as a new user reads them, on a scaffold
# shaped like kubebuilder v4's at supported lines of hack/lines.txt, two at
# a time: hack/e2e's TestNewcomer/LINE (hack/installroute's newcomer.go),
# as make test-newcomer runs it.
#
#   hack/newcomer-test.sh [LINE...|all]  # lines or selectors of hack/lines.sh
#                                        # (default: install, the install line)
#
# NEWCOMER_ENVTEST_K8S_VERSION: step 5b's envtest release (the Makefile's
# note); CONTROLLER_GEN overrides bin/controller-gen.
set -euo pipefail
cd "$(dirname "$0")"
sel=${*:-install}
names=$(./lines.sh names ${sel/#all/supported})
STATUSPATCH_E2E=1 GOWORK=off exec go test -vet=off -count=1 -timeout 0 -v -parallel 2 ./e2e -run "^TestNewcomer\$/^(${names//$'\n'/|})\$"
