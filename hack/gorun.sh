#!/usr/bin/env bash
# hack/gorun.sh PROGRAM [ARGS...]: hack/PROGRAM, a Go program of the hack
# module, built (GOWORK=off, from the build cache once warm) and run with
# ARGS in the caller's folder and with the caller's environment as it is:
# go run would put its own GOROOT/bin first in PATH, and these programs run
# the go command with the caller's PATH, GOWORK and GOTOOLCHAIN. hack's go
# line needs Go 1.26: run it before pointing PATH or GOTOOLCHAIN at a line's
# older Go, or with that Go able to switch (GOTOOLCHAIN=path and a go1.26.x
# in PATH, as hack/installroute's routes have it).
set -euo pipefail
prog=${1:?usage: hack/gorun.sh PROGRAM [ARGS...]}
shift
bin=$(mktemp -d "${TMPDIR:-/tmp}/hack-$prog.XXXXXX")
trap 'rm -rf "$bin"' EXIT
(cd "$(dirname "$0")" && GOWORK=off GOFLAGS='' go build -o "$bin/$prog" "./$prog")
"$bin/$prog" "$@"
