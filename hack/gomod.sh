#!/usr/bin/env bash
# Runs a go command that edits a nested module's go.mod/go.sum (go get, go
# mod tidy) outside the workspace, as the module is published: the
# published go.mod files require each other at the last release, which the
# go command can't fetch before it is tagged, so this serves the checkout's
# modules at that version from a file-based proxy (hack/modproxy-env.sh).
#
#   hack/gomod.sh testenv mod tidy
#   hack/gomod.sh examples get github.com/onsi/gomega@v1.39.0
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -ge 2 ]] || { echo "usage: hack/gomod.sh MODULE_DIR GO_ARGS..." >&2; exit 2; }
dir=$1
shift
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
work=$(mktemp -d)
trap 'release_proxy_done; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
use_release_proxy "$root" "$version" "$work" >/dev/null
cd "$root/$dir"
# go.sum lines for this repository's modules belong to a release commit
# (hack/release.sh writes them): between releases the checkout is not the
# released version, so its hashes would be wrong. None are kept.
drop_ours() {
	if [[ -f go.sum ]]; then
		grep -v '^github.com/statuspatch/statuspatch[ /]' go.sum >"$work/go.sum" || true
		cp "$work/go.sum" go.sum
	fi
}
drop_ours
status=0
go "$@" || status=$?
drop_ours
exit "$status"
