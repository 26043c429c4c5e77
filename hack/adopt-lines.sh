#!/usr/bin/env bash
# README's go get lines at each older supported line (or the lines named:
# hack/lines.txt's, or selectors of hack/lines.sh), from a proxy of this
# checkout: hack/e2e's TestAdopt/LINE (hack/installroute's adopt.go), as
# make test-compat-all runs it.
#
#   hack/adopt-lines.sh [LINE...]
set -euo pipefail
cd "$(dirname "$0")"
names=$(./lines.sh names "${@:-older}")
STATUSPATCH_E2E=1 GOWORK=off exec go test -vet=off -count=1 -timeout 0 -v -parallel 2 ./e2e -run "^TestAdopt\$/^(${names//$'\n'/|})\$"
