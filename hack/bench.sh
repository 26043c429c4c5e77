#!/usr/bin/env bash
# make bench: every benchmark, each side by side with the alternative in the
# same run, ratio lines first. Results also go to hack/.bench/results.md;
# docs/benchmarks.md is written up from them.
#
#   COUNT=10 hack/bench.sh        # more repetitions of the Go benchmarks
#   SKIP_CONTENTION=1 hack/bench.sh
#   SKIP_START=1 hack/bench.sh    # no start-up runs (they build testenv-assets --etcd the first time)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
COUNT=${COUNT:-8}
BENCH=$ROOT/hack/.bench
mkdir -p "$BENCH"
results=$BENCH/results.md

if [[ ! -x /usr/bin/time ]] && command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
	apt-get install -y -qq time >/dev/null # GNU time, for peak RSS
fi

{
	echo "# statuspatch benchmarks, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(go version | cut -d' ' -f3-4), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo
	echo "## 1. Flush cost vs the handwritten patch (go test -bench, median of $COUNT)"
	echo
	go test ./patcher -run '^$' -bench 'Flush$|Noop' -benchmem -count "$COUNT" | go run ./hack/benchratio -ours patcher
	echo
	echo "### The generated field-by-field diff (golden module, Deployment-shaped CRD kind)"
	echo
	(cd cmd/statuspatch-gen/generator/testdata && GOWORK=off go test ./api/fielddiff/v1 -run '^$' -bench 'Generated' -benchmem -count "$COUNT") | go run ./hack/benchratio -ours generated
	echo
	echo "### The whole cycle on a held 100 KB status, as the reconcile pays it (examples module: cache read, answer decoded; CPU per cycle)"
	echo
	(cd examples && go test ./internal/patchers -run '^$' -bench CycleShapes -benchmem -count "$COUNT" -benchtime 200x) | go run ./hack/benchratio -ours generated
	echo
	echo "## 2. Generator vs controller-gen object (median of 5 after a warm-up)"
	echo
	./hack/bench-gen.sh
	echo
	echo "## 3. Scaling"
	echo
	echo "### Flush cost as the status grows (spec ~1 KB)"
	echo
	go test ./patcher -run '^$' -bench 'FlushScaling' -benchmem -count "$COUNT" | go run ./hack/benchratio -ours patcher
	echo
	echo "### Generator time as the number of kinds grows"
	echo
	./hack/bench-gen-scaling.sh
	if [[ -z ${SKIP_START:-} ]]; then
		echo
		echo "## Start-up to the first write: testenv embedded and full API vs envtest, same binaries"
		echo
		N=${START_N:-5} ./hack/bench-start.sh
	fi
	if [[ -z ${SKIP_CONTENTION:-} ]]; then
		echo
		echo "## 4. Convergence under contention and requests per reconcile (in-process API server)"
		echo
		(cd testenv && go run ./internal/bench)
		echo
		echo "### Retry's default budget at 32 writers x 20 appends (fails if any update exhausts it)"
		echo
		(cd testenv && go run ./internal/bench -writers 32 -updates 20 -reconciles 0 -variants retry)
		echo
		echo "### Writers reading through caches, with and without lag, against requeue and a cluster-api-style helper (fails if a locked variant loses an update)"
		echo
		(cd testenv && go run ./internal/bench -writers 2,8 -updates 5 -lag 0,50ms -reconciles 0 -bound 60s)
		echo
		echo "### Two controllers owning disjoint status fields: merge mode, apply mode with and without the lock, blind MergeFrom (fails if a patcher variant loses an update)"
		echo
		(cd testenv && go run ./internal/bench -cowriters 8 -updates 20 -repeat 5)
	fi
} 2>&1 | tee "$results"
echo
echo "written to $results"
