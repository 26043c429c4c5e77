#!/usr/bin/env bash
# Run by make verify-generated, sourced by hack/newcomer-test.sh: a test
# module outside the workspace, at the line the workspace builds, takes the
# workspace's version of every module both graphs hold (the Go program
# hack/workspaceversions, over hack/internal/wsversions, says why).
#
#   hack/workspace-versions.sh DIR [MODFILE]   (MODFILE relative to DIR;
#                                               default DIR/go.mod)
#
# Sourced: workspace_versions MODFILE, run in the module's directory, and
# is_workspace_line CR K8S (the workspace builds controller-runtime CR and
# k8s.io/api K8S), each with the caller's environment (hack/gorun.sh).

_ws_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
workspace_versions() { "$_ws_root/hack/gorun.sh" workspaceversions -root "$_ws_root" . "$1"; }
is_workspace_line() { "$_ws_root/hack/gorun.sh" workspaceversions -root "$_ws_root" -is-line "$1" "$2"; }

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	exec "$_ws_root/hack/gorun.sh" workspaceversions -root "$_ws_root" "$@"
fi
