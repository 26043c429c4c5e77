#!/usr/bin/env bash
# Proves the statuspatch golangci-lint module plugin builds against the pinned
# golangci-lint (see go.mod here) and works: builds golangci-lint with the
# plugin compiled in, as `golangci-lint custom` would from .custom-gcl.yml,
# then runs it on code with known handwritten status writes and expects them
# reported. Needs the Go module proxy only.
#
#   build.sh [OUT]      build OUT (bin/golangci-lint-statuspatch) and check it
#   build.sh --sources  print the plugin's source files, relative to the
#                       repository's root: what the version's digest covers
#                       and the Makefile rebuilds OUT on
#   build.sh --digest   print the version's digest of those files
#
# hack/pluginsources tests --sources and --digest on a tree of its own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

# sources: the linter's non-test Go files and this folder's, their go.mod,
# go.sum and go.work files, sorted.
sources() {
	(cd "$root" && find cmd/statuspatch-lint hack/golangci-plugin -name testdata -prune -o -type f \
		\( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum -o -name go.work -o -name go.work.sum \) -print |
		LC_ALL=C sort)
}
# digest: 16 hex digits of a sha256 over those files' sha256 lines.
digest() {
	local files d
	files=$(sources)
	[[ -n $files ]] || { echo "build.sh: no source files of the plugin under $root" >&2; return 1; }
	d=$( (cd "$root" && xargs sha256sum) <<<"$files" | sha256sum | cut -c1-16)
	[[ $d =~ ^[0-9a-f]{16}$ ]] || { echo "build.sh: no digest of the plugin's source (got '$d')" >&2; return 1; }
	echo "$d"
}
case ${1:-} in
--sources)
	sources
	exit 0
	;;
--digest)
	digest
	exit 0
	;;
esac
out=${1:-$root/bin/golangci-lint-statuspatch}
# A relative OUT is the caller's, not this folder's (go build runs here):
# build.sh bin/x from the root once left the binary in this folder.
[[ $out == /* ]] || out=$PWD/$out

echo "building $out"
# hack/golangci-plugin/go.work builds it against this checkout's statuspatch-lint module
# (its go.mod requires the last release, with no replace directive).
# The version carries a digest of the plugin's source (sources):
# golangci-lint salts its analysis cache with its version, so a change to
# the analyzers must change it (main.go's sourceDigest).
digest=$(digest)
(cd "$here" && go build -ldflags "-X main.sourceDigest=$digest" -o "$out" .)
"$out" version

echo "running it on cmd/statuspatch-lint/lint/testdata/realmod/controllers (handwritten and blind status writes expected)"
set +e
report=$(cd "$root/cmd/statuspatch-lint/lint/testdata/realmod" && GOWORK=off "$out" run --config "$here/.golangci.yml" ./controllers/ 2>&1)
code=$?
set -e
echo "$report"
found=$(grep -cE ': .*\(statuspatch\)$' <<<"$report" || true)
if [[ $code -ne 1 || $found -lt 1 ]]; then
	echo "FAIL: expected exit 1 with statuspatch findings, got exit $code and $found findings" >&2
	exit 1
fi
echo "ok: the plugin reported $found status writes (handwritten or blind)"

# kubebuilder's own .golangci.yml (v4.11, written for golangci-lint v2.7.2;
# v4.15, for v2.12.2), with statuspatch wired in as docs/kubebuilder.md
# says: this golangci-lint (v2.15.0) must accept the config and run every
# linter in it, statuspatch included.
for cfg in "$here"/testdata/kubebuilder-*.golangci.yml; do
	echo "running it with $(basename "$cfg")"
	set +e
	report=$(cd "$root/cmd/statuspatch-lint/lint/testdata/realmod" && GOWORK=off "$out" run --config "$cfg" ./controllers/ 2>&1)
	code=$?
	set -e
	found=$(grep -cE ': .*\(statuspatch\)$' <<<"$report" || true)
	if [[ $code -ne 1 || $found -lt 1 ]] || grep -qiE '^(Error|level=error)|unknown linter|failed to' <<<"$report"; then
		echo "$report"
		echo "FAIL: $(basename "$cfg"): expected exit 1 with statuspatch findings and no config error, got exit $code and $found findings (above)" >&2
		exit 1
	fi
	echo "ok: $(basename "$cfg"): $found statuspatch findings, $(grep -cE '^[^ ]+:[0-9]+:[0-9]+: ' <<<"$report" || true) findings in all"
done
