#!/usr/bin/env bash
# Proves the statuspatch golangci-lint module plugin builds against the pinned
# golangci-lint (see go.mod here) and works: builds golangci-lint with the
# plugin compiled in, as `golangci-lint custom` would from .custom-gcl.yml,
# then runs it on code with known handwritten status writes and expects them
# reported. Needs the Go module proxy only.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$root/bin/golangci-lint-statuspatch}

echo "building $out"
# hack/golangci-plugin/go.work builds it against this checkout's statuspatch-lint module
# (its go.mod requires the last release, with no replace directive).
(cd "$here" && go build -o "$out" .)
"$out" version

echo "running it on cmd/statuspatch-lint/lint/testdata/realmod/controllers (handwritten status writes expected)"
set +e
report=$(cd "$root/cmd/statuspatch-lint/lint/testdata/realmod" && GOWORK=off "$out" run --config "$here/.golangci.yml" ./controllers/ 2>&1)
code=$?
set -e
echo "$report"
found=$(grep -cE ': handwritten status write.*\(statuspatch\)$' <<<"$report" || true)
if [[ $code -ne 1 || $found -lt 1 ]]; then
	echo "FAIL: expected exit 1 with statuspatch findings, got exit $code and $found findings" >&2
	exit 1
fi
echo "ok: the plugin reported $found handwritten status writes"
