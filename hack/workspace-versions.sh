#!/usr/bin/env bash
# Sourced by hack/compat.sh and run by make verify-generated: a test module
# outside the workspace, at the line the workspace builds, takes the
# workspace's version of every module both graphs hold (golang.org/x/*,
# prometheus, protobuf ...), not tidy's lower one. Then the build cache
# serves it what make test compiled at the workspace's versions (the API
# server's libraries and controller-runtime: minutes on a cold 2-core
# machine), and CI compiles them once.
#
#   hack/workspace-versions.sh DIR [MODFILE]   (MODFILE relative to DIR;
#                                               default DIR/go.mod)

# workspace_versions MODFILE, run in the module's directory, with the
# repository's workspace in reach (go list from $_ws_root).
workspace_versions() {
	local rel=$1 ws reqs=() path version
	ws=$(cd "$_ws_root" && go list -m -f '{{.Path}} {{.Version}}' all)
	while read -r path version; do
		[[ -n $version && $path != github.com/statuspatch/* ]] || continue
		reqs+=(-require="$path@$version")
	done < <(join <(sort <<<"$ws") <(GOWORK=off go list -modfile="$rel" -m -f '{{.Path}} {{.Version}}' all | sort) | awk '$2 != $3 { print $1, $2 }')
	((${#reqs[@]})) || return 0
	echo "  $(basename "$PWD") at the workspace's versions: ${reqs[*]#-require=}" >&2
	GOWORK=off go mod edit -modfile="$rel" "${reqs[@]}"
	GOWORK=off go mod tidy -modfile="$rel"
}

# is_workspace_line CR K8S: the workspace builds controller-runtime CR and
# k8s.io/api K8S (examples/go.mod pins them).
is_workspace_line() {
	local ws
	ws=$(cd "$_ws_root" && go list -m -f '{{.Path}} {{.Version}}' all)
	grep -qx "sigs.k8s.io/controller-runtime $1" <<<"$ws" && grep -qx "k8s.io/api $2" <<<"$ws"
}

_ws_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: hack/workspace-versions.sh DIR [MODFILE]" >&2; exit 2; }
	cd "$1"
	workspace_versions "${2:-go.mod}"
fi
