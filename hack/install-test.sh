#!/usr/bin/env bash
# Proves an operator pinned the way operators pin can install and use
# statuspatch from a module proxy without any of its versions moving: the
# README's install and lint lines and docs/kubebuilder.md's targets in a
# scratch operator pinned at hack/lines.txt's install line, with that
# line's Go, from a proxy of this checkout. The route is hack/installroute
# (its doc lists the steps; its tests check the docs hold what it runs).
#
#   hack/install-test.sh            # the version the nested go.mod files require
#   hack/install-test.sh v0.2.0     # another one (after hack/release.sh moved them)
#
# INSTALL_TEST_GOLANGCI=1 adds kubebuilder's make lint with the
# golangci-lint plugin wiring (minutes more); CONTROLLER_GEN overrides
# bin/controller-gen.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exec "$root/hack/gorun.sh" installroute install -root "$root" "$@"
