#!/usr/bin/env bash
# hack/lines.sh ARGS: the supported lines of hack/lines.txt as scripts read
# them (hack/lines: go run, cached after the first build). For example
#
#   hack/lines.sh rows older      # name cr k8s toolchain go-line envtest roles
#   hack/lines.sh assets          # the envtest release make test-assets builds
#
# hack's go line needs Go 1.26: read the lines before a script points PATH
# or GOTOOLCHAIN at a line's older Go.
set -euo pipefail
cd "$(dirname "$0")"
GOWORK=off GOFLAGS='' exec go run ./lines -f lines.txt "$@"
