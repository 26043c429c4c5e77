#!/usr/bin/env bash
# Run by make verify-generated: a test
# module outside the workspace, at the line the workspace builds, takes the
# workspace's version of every module both graphs hold (the Go program
# hack/workspaceversions, over hack/internal/wsversions, says why).
#
#   hack/workspace-versions.sh DIR [MODFILE]   (MODFILE relative to DIR;
#                                               default DIR/go.mod)
#
# (hack/installroute's newcomer route calls hack/internal/wsversions
# itself.)
set -euo pipefail
_ws_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec "$_ws_root/hack/gorun.sh" workspaceversions -root "$_ws_root" "$@"
