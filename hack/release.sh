#!/usr/bin/env bash
# Releases every published module of this repository at one version,
# consistently. Dry run unless --apply.
#
#   hack/release.sh v0.2.0                  # dry run: prints the release commit and tags
#   hack/release.sh v0.2.0 --keep DIR       # dry run, and leave the prepared clone in DIR
#   hack/release.sh v0.2.0 --apply          # fetch the release commit and tags into this repository
#
# The published modules (hack/modproxy's list): the runtime at the root,
# testenv, the tools cmd/statuspatch-gen and cmd/statuspatch-lint, the
# examples and hack/golangci-plugin. hack itself is not published.
#
# It never pushes. Working in a temporary clone of HEAD, it
#  1. moves every requirement between the published modules to VERSION
#     (testenv on the root; the examples on the root, testenv and the two
#     tools; hack/golangci-plugin on cmd/statuspatch-lint), the go.work
#     replace lines and the versions in the install docs;
#  2. builds a file-based proxy of the modules at VERSION (hack/modproxy) and,
#     module by module, runs `go mod tidy` against it with GOWORK=off in each
#     module that requires a sibling, then `go list -deps -test ./...` with
#     -mod=readonly in every module: every import of every module resolves,
#     from the proxy, with a complete go.sum and no replace directive. The
#     root and the tools require no sibling: their go.mod and go.sum are
#     released as they are, and resolve alone. (Compiling is left to CI:
#     make test, make lint-plugin and hack/install-test.sh build the same
#     code with the same versions.)
#  3. commits "release: VERSION" and tags VERSION, testenv/VERSION,
#     cmd/statuspatch-gen/VERSION, cmd/statuspatch-lint/VERSION,
#     examples/VERSION and hack/golangci-plugin/VERSION (the tag names the go
#     command looks for in a multi-module repository).
# With --apply it then fetches that commit and the tags into this repository
# and fast-forwards the current branch to it; `git push` is yours to run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: hack/release.sh vX.Y.Z [--apply | --keep DIR]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
version=$1
shift
apply=false keep=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--apply) apply=true ;;
	--keep) [[ $# -ge 2 ]] || usage; keep=$2; shift ;;
	*) usage ;;
	esac
	shift
done
if ! [[ $version =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: $version is not a version like v0.2.0" >&2
	exit 1
fi
prefix=github.com/statuspatch/statuspatch
# The nested published modules, in dependency order (a module after the
# siblings it requires), and the siblings each requires ("." is the root).
# The root and the tools require none; hack/modproxy refuses a go.mod that
# requires a sibling at another version, so a requirement missing here
# fails the release instead of shipping.
nested=(testenv cmd/statuspatch-gen cmd/statuspatch-lint examples hack/golangci-plugin)
declare -A needs=(
	[testenv]="."
	[cmd/statuspatch-gen]=""
	[cmd/statuspatch-lint]=""
	[examples]=". testenv cmd/statuspatch-gen cmd/statuspatch-lint"
	[hack/golangci-plugin]="cmd/statuspatch-lint"
)
modpath() { if [[ $1 == . ]]; then echo "$prefix"; else echo "$prefix/$1"; fi; }
tags=("$version")
for m in "${nested[@]}"; do tags+=("$m/$version"); done
for t in "${tags[@]}"; do
	if git -C "$root" rev-parse -q --verify "refs/tags/$t" >/dev/null; then
		echo "release: tag $t exists already" >&2
		exit 1
	fi
done
if $apply && [[ -n $(git -C "$root" status --porcelain) ]]; then
	echo "release: the working tree has uncommitted changes; commit them first" >&2
	exit 1
fi
if [[ -n $(git -C "$root" status --porcelain) ]]; then
	echo "release: note: uncommitted changes are not part of the release (it is made from HEAD)"
fi

work=$(mktemp -d)
# release_proxy_done (hack/modproxy-env.sh, sourced below) drops the
# proxy's copies of this repository's modules from the module cache.
cleanup() {
	if declare -F release_proxy_done >/dev/null; then release_proxy_done; fi
	chmod -R u+w "$work" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
clone=${keep:-$work/repo}
if [[ -n $keep ]]; then
	[[ ! -e $keep ]] || { echo "release: --keep $keep exists already" >&2; exit 1; }
fi
git clone -q --no-local "$root" "$clone"
git -C "$clone" checkout -q --detach "$(git -C "$root" rev-parse HEAD)"
cd "$clone"

old=$(awk -v p="$prefix" '$1 == p { print $2 }' testenv/go.mod)
[[ -n $old ]] || { echo "release: testenv/go.mod does not require $prefix; cannot tell the last release" >&2; exit 1; }
echo "release: $old -> $version, from $(git rev-parse --short HEAD)"

# 1. Requirements, go.work replacements, install docs.
for m in . "${nested[@]}"; do
	# A module that needs no sibling must not name one (the root's own
	# module line aside): its go.mod is released as it is.
	if [[ -z ${needs[$m]:-} ]]; then
		if grep -nE "^[[:space:]]*(require[[:space:]]+|tool[[:space:]]+)?$prefix(/[^[:space:]]*)?([[:space:]]|$)" "$m/go.mod"; then
			echo "release: $m/go.mod names a module of this repository (above), but hack/release.sh's table says it needs none; add it to 'needs'" >&2
			exit 1
		fi
		continue
	fi
	for s in ${needs[$m]}; do
		(cd "$m" && GOWORK=off go mod edit -require "$(modpath "$s")@$version")
	done
done
sed -i -E "s#^(\s*(replace\s+)?$prefix(/[A-Za-z0-9_./-]+)?) $old =>#\1 $version =>#" go.work hack/golangci-plugin/go.work
for doc in README.md docs/kubebuilder.md examples/README.md testenv/README.md docs/compatibility.md; do
	[[ -f $doc ]] || continue
	sed -i -E -e "s#($prefix[A-Za-z0-9/_.-]*@)$old\b#\1$version#g" \
		-e "s#(STATUSPATCH_VERSION \?= )$old\b#\1$version#" \
		-e "s#(version: )$old(\s+\# statuspatch)#\1$version\2#" "$doc"
done

# 2. go.sum of each module that requires a sibling, against the proxy, in
# dependency order (a module's zip holds its go.sum, and a requiring module's
# go.sum holds the hash of that zip, so the proxy is rebuilt before each).
# Then every module, the root included, resolves from the proxy alone.
# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
# Held until the release exits: the module-by-module subshells below share it.
lock_release_cache
for m in . "${nested[@]}"; do
	(
		use_release_proxy "$clone" "$version" "$work" >/dev/null
		cd "$m"
		if [[ -n ${needs[$m]:-} ]]; then
			echo "release: $m: go mod tidy, go list -deps -test ./... (GOWORK=off, from the proxy)"
			go mod tidy
		else
			echo "release: $m: go list -deps -test ./... (GOWORK=off, from the proxy; needs no sibling, released as it is)"
		fi
		GOFLAGS="$GOFLAGS -mod=readonly" go list -deps -test ./... >/dev/null
		if grep -n '^replace\|^\s*replace' go.mod; then echo "release: $m/go.mod has a replace directive" >&2; exit 1; fi
	)
done

# 3. Commit and tags.
git add -A
git -c user.name="${GIT_AUTHOR_NAME:-statuspatch release}" -c user.email="${GIT_AUTHOR_EMAIL:-release@statuspatch.invalid}" \
	commit -q -m "release: $version"
for t in "${tags[@]}"; do
	git -c user.name="${GIT_AUTHOR_NAME:-statuspatch release}" -c user.email="${GIT_AUTHOR_EMAIL:-release@statuspatch.invalid}" \
		tag -a "$t" -m "statuspatch $version"
done
git --no-pager show --stat --format='release commit %h: %s' HEAD
echo "release: tags: ${tags[*]}"

if ! $apply; then
	echo "release: dry run; nothing changed in $root (--apply to fetch the commit and tags)"
	exit 0
fi
git -C "$root" fetch -q "$clone" HEAD
git -C "$root" merge -q --ff-only FETCH_HEAD
for t in "${tags[@]}"; do git -C "$root" fetch -q "$clone" "refs/tags/$t:refs/tags/$t"; done
echo "release: $root is at the release commit; push with: git push origin HEAD ${tags[*]}"
