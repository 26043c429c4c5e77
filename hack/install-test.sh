#!/usr/bin/env bash
# README's install and lint lines and docs/kubebuilder.md's targets in a
# scratch operator pinned at hack/lines.txt's install line, with that
# line's Go, from a proxy of this checkout; no pin moves: hack/e2e's
# TestInstall (the steps: hack/installroute's doc), as make test-install.
#
#   hack/install-test.sh            # the version the nested go.mod files require
#   hack/install-test.sh v0.2.0     # another one (after hack/release.sh moved them)
#
# INSTALL_TEST_GOLANGCI=1 adds kubebuilder's make lint with the
# golangci-lint plugin wiring (minutes more); CONTROLLER_GEN overrides
# bin/controller-gen.
set -euo pipefail
cd "$(dirname "$0")"
STATUSPATCH_E2E=1 GOWORK=off exec go test -vet=off -count=1 -timeout 0 -v ./e2e -run '^TestInstall$' ${1:+"-version=$1"}
