#!/usr/bin/env bash
# Two hack/release.sh runs and an install test, started at once on one
# machine, must all pass (make test-release-concurrent). They share
# hack/internal/releaseproxy's module cache, from which each drops this
# repository's modules before it builds from its own proxy; without the
# cache's lock one run deleted them under another ("cannot find package" for
# patchertest, for the generator's templates) and the release failed.
#
#   hack/release-concurrency-test.sh          # the install test is hack/install-test.sh
#   RELEASE_CONCURRENCY_INSTALL=quick hack/release-concurrency-test.sh
#
# The runs: a dry run with --keep into a scratch folder; an --apply in a
# scratch clone of this checkout (it fast-forwards the clone, never this
# repository); and hack/install-test.sh, or with
# RELEASE_CONCURRENCY_INSTALL=quick a short consumer of the same cache (go
# get the runtime and patchertest, list their imports, go install statuspatch-gen
# and run it), which exercises the same race in seconds instead of the
# install test's minutes. Each run's output is in a log printed on failure;
# the script prints how long each took and how long the whole took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "release-concurrency-test: $*" >&2; exit 1; }
mode=${RELEASE_CONCURRENCY_INSTALL:-full}
[[ $mode == full || $mode == quick ]] || fail "RELEASE_CONCURRENCY_INSTALL is $mode; want full or quick"
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
[[ -n $version ]] || fail "cannot read the version testenv/go.mod requires"
for v in v0.97.0 v0.98.0; do
	! git -C "$root" rev-parse -q --verify "refs/tags/$v" >/dev/null || fail "tag $v exists here; the test releases it in scratch clones"
done

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
git clone -q --no-local "$root" "$work/apply-repo"
git -C "$work/apply-repo" checkout -q -B release-test "$(git -C "$root" rev-parse HEAD)"

quick_install() {
	# shellcheck source=hack/modproxy-env.sh
	source "$root/hack/modproxy-env.sh"
	# As every other caller: the rebuilt copies dropped again at the end
	# (this subshell's EXIT), under the lock it still holds.
	trap release_proxy_done EXIT
	use_release_proxy "$root" "$version" "$work/quick"
	mkdir -p "$work/quick/consumer"
	cd "$work/quick/consumer"
	go mod init example.com/consumer
	go get "github.com/statuspatch/statuspatch/patcher@$version" "github.com/statuspatch/statuspatch/patchertest@$version"
	go list -deps github.com/statuspatch/statuspatch/patcher github.com/statuspatch/statuspatch/patchertest >/dev/null
	GOBIN=$PWD/bin go install "github.com/statuspatch/statuspatch/cmd/statuspatch-gen@$version"
	bin/statuspatch-gen -h >/dev/null 2>&1 || true
	[[ -x bin/statuspatch-gen ]]
}

start=$(date +%s)
declare -A pids began
run() { # NAME COMMAND...: start COMMAND in the background, its output in a log
	local name=$1
	shift
	began[$name]=$(date +%s)
	(
		set +e
		(set -e; "$@")
		rc=$?
		date +%s >"$work/$name.end"
		exit "$rc"
	) >"$work/$name.log" 2>&1 &
	pids[$name]=$!
	echo "started $name (pid ${pids[$name]}): $*"
}
run release-dry "$root/hack/release.sh" v0.98.0 --keep "$work/dry-clone"
run release-apply "$work/apply-repo/hack/release.sh" v0.97.0 --apply
if [[ $mode == full ]]; then
	run install-test "$root/hack/install-test.sh"
else
	run install-quick quick_install
fi

failed=()
for name in "${!pids[@]}"; do
	if wait "${pids[$name]}"; then
		took=$(($(cat "$work/$name.end") - began[$name]))
		echo "ok: $name passed (${took}s)"
	else
		took=$(($(cat "$work/$name.end") - began[$name]))
		echo "FAIL: $name (${took}s), its log:"
		sed 's/^/    /' "$work/$name.log"
		failed+=("$name")
	fi
done
((${#failed[@]} == 0)) || fail "failed: ${failed[*]}"
# The apply moved the scratch clone only; the dry run kept its clone.
git -C "$work/apply-repo" rev-parse -q --verify refs/tags/v0.97.0 >/dev/null || fail "release --apply did not tag v0.97.0 in its clone"
[[ $(git -C "$work/apply-repo" log -1 --format=%s) == "release: v0.97.0" ]] || fail "release --apply did not fast-forward its clone"
git -C "$work/dry-clone" rev-parse -q --verify refs/tags/v0.98.0 >/dev/null || fail "the dry run's kept clone has no tag v0.98.0"
! git -C "$root" rev-parse -q --verify refs/tags/v0.97.0 >/dev/null || fail "a run tagged this repository"
grep -h 'waiting for another run' "$work"/*.log | sort | uniq -c || true
echo "ok: two releases and the install test ($mode), started at once, all passed in $(($(date +%s) - start))s"
