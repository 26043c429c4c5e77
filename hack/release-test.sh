#!/usr/bin/env bash
# Tests hack/release.sh (run by `make test-release` and CI): bad input fails
# before any work; a dry run of a new version leaves this repository alone and
# prepares a clone whose six published modules (the root, testenv, the two
# tools under cmd/, examples, hack/golangci-plugin) are tagged with the names
# the go command looks for, require each other at that version where they
# require each other at all (the root and the tools need no sibling and are
# released unchanged), carry no replace directive, and resolve from a proxy
# (release.sh checks that itself). It shares hack/install-test.sh's module
# cache, under a lock (hack/modproxy-env.sh): started together, they take
# turns (hack/release-concurrency-test.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
version=v0.99.0
fail() { echo "release-test: $*" >&2; exit 1; }

for bad in 0.2.0 v0.2 v1.2.3+build; do
	if hack/release.sh "$bad" >/dev/null 2>&1; then fail "release.sh accepted version $bad"; fi
done
if hack/release.sh "$version" --bogus >/dev/null 2>&1; then fail "release.sh accepted an unknown flag"; fi
echo "ok: bad versions and flags are refused"

head_before=$(git rev-parse HEAD)
tags_before=$(git tag -l | wc -l)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
clone=$work/clone
hack/release.sh "$version" --keep "$clone"

[[ $(git rev-parse HEAD) == "$head_before" ]] || fail "the dry run moved HEAD"
[[ $(git tag -l | wc -l) == "$tags_before" ]] || fail "the dry run created tags here"
published=(. testenv cmd/statuspatch-gen cmd/statuspatch-lint examples hack/golangci-plugin)
for m in "${published[@]}"; do
	t=$version
	[[ $m == . ]] || t=$m/$version
	git -C "$clone" rev-parse -q --verify "refs/tags/$t" >/dev/null || fail "no tag $t in the prepared clone"
	if grep -n "^\s*replace" "$clone/$m/go.mod"; then fail "$m/go.mod has a replace directive"; fi
done
[[ $(git -C "$clone" log -1 --format=%s) == "release: $version" ]] || fail "no release commit"
p=github.com/statuspatch/statuspatch
# requires MODULE SIBLING_PATH: the release moved MODULE's requirement of
# SIBLING_PATH to $version and recorded the hash of its go.mod.
requires() {
	grep -qE "^\s*$2 $version( // indirect)?$" "$clone/$1/go.mod" || fail "$1/go.mod does not require $2 at $version"
	grep -q "^$2 $version/go.mod h1:" "$clone/$1/go.sum" || fail "$1/go.sum lacks $2's $version hash"
}
requires testenv "$p"
requires examples "$p"
requires examples "$p/testenv"
requires examples "$p/cmd/statuspatch-gen"
requires examples "$p/cmd/statuspatch-lint"
requires hack/golangci-plugin "$p/cmd/statuspatch-lint"
# The root and the tools need no sibling: the release leaves their go.mod
# and go.sum as they were.
for m in . cmd/statuspatch-gen cmd/statuspatch-lint; do
	git -C "$clone" diff --quiet HEAD~1 HEAD -- "$m/go.mod" "$m/go.sum" || fail "the release changed $m/go.mod or go.sum"
done
grep -q "statuspatch-gen@$version" "$clone/README.md" || fail "README.md's install commands are not at $version"
grep -q "STATUSPATCH_VERSION ?= $version" "$clone/docs/kubebuilder.md" || fail "docs/kubebuilder.md's version variable is not $version"
for m in "$p" "$p/testenv" "$p/cmd/statuspatch-gen" "$p/cmd/statuspatch-lint"; do
	grep -q "^\s*$m $version => " "$clone/go.work" || fail "go.work does not map $m $version to the checkout"
done
grep -q "^\s*replace $p/cmd/statuspatch-lint $version => " "$clone/hack/golangci-plugin/go.work" ||
	fail "hack/golangci-plugin/go.work does not map cmd/statuspatch-lint $version to the checkout"
old=$(awk -v p="$p" '$1 == p { print $2 }' testenv/go.mod)
[[ -n $old ]] || fail "cannot read the last release from testenv/go.mod"
old_re=${old//./\\.}
if grep -n "$p[a-z/-]* $old_re\b\|$p[a-z/-]*@$old_re\b" "$clone/go.work" "$clone"/*/go.mod "$clone"/cmd/*/go.mod "$clone/hack/golangci-plugin/go."{mod,work} "$clone/README.md" "$clone/docs/kubebuilder.md"; then
	fail "the release left the previous version behind (above)"
fi
echo "ok: dry run of $version: commit, six tags, requirements, go.work, docs; nothing changed here"

# A tag that exists already stops the release before any work.
git -C "$clone" tag -d "$version" >/dev/null
if (cd "$clone" && git tag "$version" HEAD && hack/release.sh "$version" >/dev/null 2>&1); then
	fail "release.sh went ahead although tag $version exists"
fi
echo "ok: an existing tag is refused"
