#!/usr/bin/env bash
# Tests hack/release.sh (run by `make test-release` and CI): bad input fails
# before any work; a dry run of a new version leaves this repository alone and
# prepares a clone whose four modules require each other at that version,
# carry no replace directive, resolve from a proxy (release.sh checks that
# itself), and are tagged with the names the go command looks for. It shares
# hack/install-test.sh's module cache: run the two one after the other.
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
for t in "$version" "testenv/$version" "examples/$version" "hack/golangci-plugin/$version"; do
	git -C "$clone" rev-parse -q --verify "refs/tags/$t" >/dev/null || fail "no tag $t in the prepared clone"
done
[[ $(git -C "$clone" log -1 --format=%s) == "release: $version" ]] || fail "no release commit"
for m in testenv examples hack/golangci-plugin; do
	grep -q "^\s*github.com/statuspatch/statuspatch $version$" "$clone/$m/go.mod" || fail "$m/go.mod does not require the root at $version"
	grep -q "^\s*replace" "$clone/$m/go.mod" && fail "$m/go.mod has a replace directive"
	grep -q "^github.com/statuspatch/statuspatch $version/go.mod h1:" "$clone/$m/go.sum" || fail "$m/go.sum lacks the root's $version hash"
done
grep -q "^\s*github.com/statuspatch/statuspatch/testenv $version$" "$clone/examples/go.mod" || fail "examples/go.mod does not require testenv at $version"
grep -q "statuspatch-gen@$version" "$clone/README.md" || fail "README.md's install commands are not at $version"
grep -q "STATUSPATCH_VERSION ?= $version" "$clone/docs/kubebuilder.md" || fail "docs/kubebuilder.md's version variable is not $version"
grep -q "github.com/statuspatch/statuspatch $version => ./" "$clone/go.work" || fail "go.work does not map $version to the checkout"
echo "ok: dry run of $version: commit, four tags, requirements, docs; nothing changed here"

# A tag that exists already stops the release before any work.
git -C "$clone" tag -d "$version" >/dev/null
if (cd "$clone" && git tag "$version" HEAD && hack/release.sh "$version" >/dev/null 2>&1); then
	fail "release.sh went ahead although tag $version exists"
fi
echo "ok: an existing tag is refused"
