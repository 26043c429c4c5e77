#!/usr/bin/env bash
# Start-up to the first accepted write (a create and its status write):
# testenv's embedded server, testenv's full API and controller-runtime's
# envtest on the same kube-apiserver and etcd binaries (testenv-assets
# --etcd) and the same CRDs, each start in a process of its own, the
# backends taking turns; medians and ratios to envtest
# (testenv/internal/startbench). The machine's load is printed before and
# after: on a shared machine the wall times move with it.
#
#   N=7 hack/bench-start.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
N=${N:-7}
assets=$(make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd | tail -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd testenv && go build -o "$tmp/startbench" ./internal/startbench)
echo "assets: $assets"
echo "load before: $(uptime)"
"$tmp/startbench" -n "$N" -assets "$assets"
echo "load after: $(uptime)"
