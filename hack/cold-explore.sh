#!/usr/bin/env bash
# Measures a new user's cold path to the explorer's first schedule on a real
# operator: examples/realops copied into a scratch module (this checkout's
# testenv by replace), with an empty module cache, build cache and
# testenv-assets cache of its own, then the documented steps one by one:
#
#   1. go mod download                        (go get's downloads)
#   2. testenv-assets use -p path module      (the full API's kube-apiserver, at the
#                                             operator's own k8s.io release, sharing
#                                             compiled packages with step 3)
#   3. testenv-assets warm ./...              (the test's dependencies, with progress)
#   4. go test -run TestExploreRabbitmqCluster (the test link, then the exploration)
#
# Each step is timed (wall, and CPU as user + sys). Run it on an idle machine
# for figures that mean anything (docs/benchmarks.md#the-cold-path-to-the-first-schedule).
#
#   hack/cold-explore.sh [WORKDIR]     # WORKDIR is removed first; default a mktemp -d
#
# COLD_EXPLORE_USE="1.N.x -align=false" measures the route before sharing
# (kube-apiserver at another line, k8s.io/kubernetes's own versions).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
rm -rf "$work" && mkdir -p "$work/op"
export XDG_CACHE_HOME=$work/cache GOPATH=$work/gopath GOWORK=off GOFLAGS=-modcacherw
unset GOCACHE GOMODCACHE
cp "$root"/examples/realops/{*.go,go.mod,go.sum} "$work/op/"
sed -i -e "s#=> ../../testenv#=> $root/testenv#" -e "s#=> ../..\$#=> $root#" "$work/op/go.mod"
cd "$work/op"
total=0
phase() {
	local name=$1; shift
	echo "=== $name: $*" >&2
	local t0=$SECONDS
	/usr/bin/time -f "$name: %e s wall, %U s user + %S s sys, %M KB peak RSS" -a -o "$work/times" "$@"
	echo "=== $name: done after $((SECONDS - t0)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
}
uptime >&2
phase "1 go mod download" go mod download
# shellcheck disable=SC2086 # COLD_EXPLORE_USE is words
phase "2 testenv-assets use" go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use -p path ${COLD_EXPLORE_USE:-module}
phase "3 testenv-assets warm" go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets warm ./...
phase "4 go test (link and explore)" env STATUSPATCH_REQUIRE_FULLAPI=1 go test -vet=off -count=1 -v -run 'TestExploreRabbitmqCluster$' .
echo "--- times ($work/times)"
cat "$work/times"
du -sh "$work/cache/go-build" "$work/gopath/pkg/mod" 2>/dev/null || true
