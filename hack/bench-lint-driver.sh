#!/usr/bin/env bash
# The standalone statuspatch-lint against `go vet -vettool=statuspatch-lint`
# on examples/, warm caches (issue 51: goal <= 1.5x go vet's wall time).
# Builds the command once, runs each side once to warm the build cache and
# go vet's result cache (which is keyed by the tool binary), then N pairs
# in turn (standalone, go vet, standalone, ...), timed with /usr/bin/time;
# prints each run, each side's median wall and CPU seconds, and the median
# of the pairs' wall and CPU ratios. CHECKER=1 adds the full checker
# (STATUSPATCH_LINT_DRIVER=checker, the driver before issue 51) as a third
# side. EDIT=1 measures what a user pays after an edit instead: before
# each run a comment line is appended to examples/api/v1alpha1's
# rollout_types.go (every controller imports the package), so each side
# meets the edited package and its importers unbuilt (go vet compiles
# them, the standalone command loads them from source); the file is put
# back at the end. Usage: [N=7] [CHECKER=1] [EDIT=1] hack/bench-lint-driver.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-7}
tmp=$(mktemp -d)
edited=$PWD/examples/api/v1alpha1/rollout_types.go
cp "$edited" "$tmp/edited.orig"
trap 'cp "$tmp/edited.orig" "$edited"; rm -rf "$tmp"' EXIT
bin=$tmp/statuspatch-lint
(cd cmd/statuspatch-lint && go build -o "$bin" .)
cd examples

# time_run LABEL CMD...: appends "LABEL wall cpu" to $tmp/runs; the
# command's exit status (3 with findings) is not a failure.
time_run() {
	local label=$1
	shift
	if [ "${EDIT:-}" = 1 ]; then
		echo "// edited: $label $RANDOM$RANDOM" >>"$edited"
	fi
	/usr/bin/time -f "$label %e %U %S" -o "$tmp/one" "$@" >/dev/null 2>&1 || true
	awk '{printf "%s %.2f %.2f\n", $1, $2, $3 + $4}' "$tmp/one" | tee -a "$tmp/runs"
}

"$bin" ./... >/dev/null 2>&1 || true
go vet -vettool="$bin" ./... >/dev/null 2>&1 || true
if [ "${CHECKER:-}" = 1 ]; then
	STATUSPATCH_LINT_DRIVER=checker "$bin" ./... >/dev/null 2>&1 || true
fi
: >"$tmp/runs"
for _ in $(seq "$N"); do
	time_run standalone "$bin" ./...
	time_run go-vet go vet -vettool="$bin" ./...
	if [ "${CHECKER:-}" = 1 ]; then
		time_run checker env STATUSPATCH_LINT_DRIVER=checker "$bin" ./...
	fi
done

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "medians of $N runs (wall s, CPU s), examples/${EDIT:+ after an edit}, $(go version | cut -d' ' -f3), $(nproc) cores:"
for side in standalone go-vet checker; do
	grep -q "^$side " "$tmp/runs" || continue
	printf '%-10s wall %6s  cpu %6s\n' "$side" \
		"$(awk -v s="$side" '$1 == s {print $2}' "$tmp/runs" | median)" \
		"$(awk -v s="$side" '$1 == s {print $3}' "$tmp/runs" | median)"
done
for side in standalone checker; do
	grep -q "^$side " "$tmp/runs" || continue
	# The i-th run of the side against the i-th go vet run.
	paste <(awk -v s="$side" '$1 == s' "$tmp/runs") <(awk '$1 == "go-vet"' "$tmp/runs") >"$tmp/pairs"
	printf '%s / go vet: wall %.2fx, cpu %.2fx (median of the pairs)\n' "$side" \
		"$(awk '{print $2 / $5}' "$tmp/pairs" | median)" "$(awk '{print $3 / $6}' "$tmp/pairs" | median)"
done
