#!/usr/bin/env bash
# hack/gomod.sh MODULE_DIR GO_ARGS...: a go get / go mod tidy in a nested
# module as published, against a proxy of this checkout (hack/gomod).
#
#   hack/gomod.sh testenv mod tidy
set -euo pipefail
cd "$(dirname "$0")/.."
exec hack/gorun.sh gomod "$@"
