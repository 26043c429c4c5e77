#!/usr/bin/env bash
# The small Flush's cost as instructions (deterministic, unlike wall-clock on
# a shared machine), commit beside commit: patcher/bench_test.go's
# BenchmarkFlush/small write through the patcher (flushWithPatcher) and by
# hand (flushWithMergeFrom), each under callgrind, counted inside that one
# function only; then allocations per op (-benchmem), and the patcher's
# inclusive cost per function, the first commit beside the last.
#
# usage: hack/bench-flush-instructions.sh [-s small|large] [-t TOP] OLD NEW [MORE...]
#
#   hack/bench-flush-instructions.sh 87f9631 HEAD
#   hack/bench-flush-instructions.sh 87f9631 c2899ce f5a7be6 HEAD   # one row per commit
#
# Each commit is built in a worktree under /tmp (removed at the end). Ir/op
# is (Ir at 3001 iterations - Ir at 1001) / 2000, so the benchmark's setup
# and the first write's warm-up are not counted. GOGC=off keeps the
# collector's timing out of the count (its cost follows the B/op and
# allocs/op columns); GOMAXPROCS=1, GODEBUG asyncpreemptoff=1 and
# cpu.rdtscp=off keep valgrind from tripping on Go's signals and RDTSCP.
# Results stay in OUT (default /tmp/bench-flush-instructions).
set -euo pipefail
shopt -s inherit_errexit

usage() {
	echo "usage: $0 [-s small|large] [-t TOP] OLD NEW [MORE...]" >&2
	exit 2
}

size=small
top=40
while getopts "s:t:h" opt; do
	case $opt in
	s) size=$OPTARG ;;
	t) top=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ $# -ge 2 ]] || usage
for tool in valgrind callgrind_annotate go git; do
	command -v "$tool" >/dev/null || {
		echo "$0: $tool not found (apt-get install valgrind)" >&2
		exit 1
	}
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/bench-flush-instructions}
mkdir -p "$OUT"
pkg=github.com/statuspatch/statuspatch/patcher_test
worktrees=()
cleanup() {
	for w in "${worktrees[@]}"; do
		git -C "$ROOT" worktree remove --force "$w" >/dev/null 2>&1 || true
	done
}
trap cleanup EXIT

# count BINARY FUNC VARIANT N: the instructions inside FUNC in a run of N
# iterations.
count() {
	local bin=$1 fn=$2 variant=$3 n=$4 ir
	GOGC=off GOMAXPROCS=1 GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1 \
		valgrind --tool=callgrind --toggle-collect="$pkg.$fn" \
		--callgrind-out-file="$bin.$variant.$n.cg" \
		"$bin" -test.run '^$' -test.bench "BenchmarkFlush\$/^$size\$/^$variant\$" \
		-test.benchtime "${n}x" >"$bin.$variant.$n.log" 2>&1
	ir=$(sed -n 's/^==[0-9]*== Collected : //p' "$bin.$variant.$n.log")
	[[ -n $ir ]] || {
		echo "$0: no count in $bin.$variant.$n.log" >&2
		exit 1
	}
	echo "$ir"
}

# irPerOp BINARY FUNC VARIANT: the instructions per write inside FUNC, from
# runs of 1001, 2001 and 3001 iterations. callgrind now and then loses
# track of a goroutine's stack and undercounts a run, so the two
# differences must agree within 3%; the runs are made again when they do
# not, and the figure is marked with ? when they never do.
irPerOp() {
	local bin=$1 fn=$2 variant=$3 try a b c d1 d2 mark
	for try in 1 2 3; do
		a=$(count "$bin" "$fn" "$variant" 1001)
		b=$(count "$bin" "$fn" "$variant" 2001)
		c=$(count "$bin" "$fn" "$variant" 3001)
		d1=$((b - a)) d2=$((c - b))
		mark='?'
		if (((d1 > d2 ? d1 - d2 : d2 - d1) * 100 <= 3 * (d1 > d2 ? d1 : d2))); then
			mark=''
			break
		fi
		echo "$0: $variant at $(basename "$bin"): $d1 and $d2 per 1000 writes disagree (try $try)" >&2
	done
	echo "$(((d1 + d2) / 2000))$mark"
}

# mem BINARY VARIANT: B/op and allocs/op, natively.
mem() {
	"$1" -test.run '^$' -test.bench "BenchmarkFlush\$/^$size\$/^$2\$" -test.benchtime 2000x -test.benchmem |
		awk '/^BenchmarkFlush/ { for (i = 1; i <= NF; i++) { if ($i == "B/op") b = $(i-1); if ($i == "allocs/op") a = $(i-1) } } END { print b, a }'
}

bins=()
printf '%-10s %12s %12s %7s %9s %9s %8s %8s\n' commit patcher/op hand/op ratio pB/op hB/op pallocs hallocs
for rev in "$@"; do
	sha=$(git -C "$ROOT" rev-parse --short "$rev^{commit}")
	wt=/tmp/bench-$sha
	bin=$OUT/flush-$sha.test
	if [[ ! -x $bin ]]; then
		if [[ ! -d $wt ]]; then
			git -C "$ROOT" worktree add --detach "$wt" "$sha" >/dev/null 2>&1
			worktrees+=("$wt")
		fi
		(cd "$wt" && GOWORK=off go test -c -o "$bin" ./patcher)
	fi
	bins+=("$bin")
	p=$(irPerOp "$bin" flushWithPatcher patcher)
	h=$(irPerOp "$bin" flushWithMergeFrom mergefrom-optimistic)
	read -r pb pa < <(mem "$bin" patcher)
	read -r hb ha < <(mem "$bin" mergefrom-optimistic)
	printf '%-10s %12s %12s %7s %9s %9s %8s %8s\n' "$sha" "$p" "$h" \
		"$(awk -v p="${p%\?}" -v h="${h%\?}" 'BEGIN { printf "%.3f", p / h }')" "$pb" "$hb" "$pa" "$ha"
done

# The patcher's cost per function, first commit beside last, per write (the
# 2001-iteration run counts 2002 writes), largest change first: exclusive
# (every function), then inclusive (statuspatch's own functions only: Go's
# stack switches make callgrind's inclusive counts of runtime functions
# meaningless).
perFunction() { # FILE [--inclusive=yes]
	# A function inlined into others is listed once per source file:
	# exclusive costs add up, inclusive ones overlap (the largest is kept).
	callgrind_annotate --auto=no --threshold=100 "${@:2}" "$1" 2>/dev/null |
		awk -v incl="$#" '/^ *[0-9,]+ \([ 0-9.]+%\)  / && !/PROGRAM TOTALS/ {
			ir = $1; gsub(",", "", ir); fn = $0; sub(/^[^:]*:/, "", fn); sub(/ \[.*$/, "", fn)
			if (incl > 1) { if (ir + 0 > s[fn] + 0) s[fn] = ir } else s[fn] += ir
		} END { for (f in s) print f "\t" s[f] }' | sort -t $'\t' -k1,1
}
compare() { # FILTER [--inclusive=yes]
	join -t $'\t' -a1 -a2 -e 0 -o 0,1.2,2.2 \
		<(perFunction "$first.patcher.2001.cg" "${@:2}") <(perFunction "$last.patcher.2001.cg" "${@:2}") |
		grep -E "$1" |
		awk -F '\t' '{ o = $2 / 2002; n = $3 / 2002; d = n - o; printf "%.0f %10.0f %10.0f %+10.0f  %s\n", d < 0 ? -d : d, o, n, d, $1 }' |
		sort -k1,1 -g -r | cut -d' ' -f2- | head -n "$top"
}
first=${bins[0]}
last=${bins[${#bins[@]} - 1]}
echo
echo "exclusive Ir per write, patcher variant: $(basename "$first" .test) beside $(basename "$last" .test), largest change first"
compare .
echo
echo "inclusive Ir per write, statuspatch functions: $(basename "$first" .test) beside $(basename "$last" .test), largest change first"
compare '^github.com/statuspatch/' --inclusive=yes
