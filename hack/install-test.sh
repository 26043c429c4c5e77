#!/usr/bin/env bash
# Proves a user can install and use statuspatch from a module proxy, with no
# replace directive anywhere: builds a file-based proxy holding this
# checkout's modules at the release version (hack/modproxy), then in a scratch
# module runs the README's install and lint commands exactly as written,
# generates a small operator's code the kubebuilder way (controller-gen, then
# statuspatch-gen as a Go tool), builds it, lints it and tests its reconciler
# on testenv.
#
#   hack/install-test.sh            # the version the nested go.mod files require
#   hack/install-test.sh v0.2.0     # another one (after hack/release.sh moved them)
#
# The go command's environment is hack/modproxy-env.sh's: third-party
# modules from the local module cache, then $GOPROXY; a module cache of its
# own, so the first run compiles the API server once more (minutes on 2 cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")}
[[ -n $version ]] || { echo "install-test: cannot read the version testenv/go.mod requires" >&2; exit 1; }

start=$(date +%s)
step() { echo; echo "=== install-test: $* ($(( $(date +%s) - start ))s)"; }

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
step "module proxy at $version"
use_release_proxy "$root" "$version" "$work"
unset KUBEBUILDER_ASSETS

# readme_block MARKER prints the command lines between
# <!-- MARKER:begin --> and <!-- MARKER:end --> in README.md.
readme_block() {
	sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "$root/README.md" |
		grep -vE '^(<!--|```|#|[[:space:]]*$)' || true
}
run_block() {
	local lines
	lines=$(readme_block "$1")
	[[ -n $lines ]] || { echo "install-test: README.md has no <!-- $1:begin --> block" >&2; exit 1; }
	grep -q "@$version" <<<"$lines" || [[ $1 != install ]] ||
		{ echo "install-test: README.md's install block does not install $version" >&2; exit 1; }
	while IFS= read -r line; do
		echo "\$ $line"
		bash -euo pipefail -c "$line"
	done <<<"$lines"
}

step "scratch module: go mod init, then README.md's install commands"
op=$work/operator
mkdir -p "$op"
cp -R "$root/hack/installtest/testdata/operator/." "$op/"
cd "$op"
go mod init example.com/widgets
run_block install
if grep -n replace go.mod; then echo "install-test: go.mod has a replace directive" >&2; exit 1; fi

step "generate: docs/kubebuilder.md's Makefile targets (controller-gen, statuspatch-gen via go-install-tool)"
controller_gen=${CONTROLLER_GEN:-$root/bin/controller-gen}
if [[ ! -x $controller_gen ]]; then
	echo "install-test: $controller_gen not found; run 'make tools' or set CONTROLLER_GEN" >&2
	exit 1
fi
# A kubebuilder v4 Makefile's frame around the documented block: LOCALBIN, a
# controller-gen target, and a go-install-tool that works the way
# kubebuilder's does (one binary per version, linked to the plain name).
{
	cat <<EOF
LOCALBIN ?= \$(shell pwd)/bin
\$(LOCALBIN):
	mkdir -p \$(LOCALBIN)
CONTROLLER_GEN ?= $controller_gen
.PHONY: controller-gen
controller-gen:
define go-install-tool
@[ -x "\$(1)-\$(3)" ] || { set -e; echo "installing \$(2)@\$(3)"; GOBIN=\$(LOCALBIN) go install \$(2)@\$(3); mv "\$(1)" "\$(1)-\$(3)"; }; ln -sf "\$(1)-\$(3)" "\$(1)"
endef
EOF
	sed -n '/<!-- makefile:begin -->/,/<!-- makefile:end -->/p' "$root/docs/kubebuilder.md" | grep -vE '^(<!--|```)'
} >Makefile
grep -q "STATUSPATCH_VERSION ?= $version" Makefile ||
	{ echo "install-test: docs/kubebuilder.md's STATUSPATCH_VERSION is not $version" >&2; exit 1; }
rm -f bin/statuspatch-gen # the README's go install put it there; go-install-tool must
make generate
[[ -x bin/statuspatch-gen-$version ]] ||
	{ echo "install-test: make generate did not install statuspatch-gen $version" >&2; exit 1; }
"$controller_gen" crd paths=./... output:crd:artifacts:config=config/crd/bases
# The README's Go-tool route writes the same file.
cp api/v1/zz_generated.statuspatch.go "$work/via-make.go"
go tool statuspatch-gen paths=./api/... headerFile=hack/boilerplate.go.txt
cmp api/v1/zz_generated.statuspatch.go "$work/via-make.go"
ls api/v1/zz_generated.statuspatch.go config/crd/bases/widgets.example.com_widgets.yaml
go mod tidy
if grep -n replace go.mod; then echo "install-test: go.mod has a replace directive" >&2; exit 1; fi
grep -E '^\s*(github.com/statuspatch/statuspatch|tool)' go.mod

step "build, README.md's lint commands, make lint-status"
go build ./...
rm -f bin/statuspatch-lint # as above: make lint-status installs it with go-install-tool
make lint-status
[[ -x bin/statuspatch-lint-$version ]] ||
	{ echo "install-test: make lint-status did not install statuspatch-lint $version" >&2; exit 1; }
run_block lint

step "a handwritten status write must fail every lint command"
cat >internal/controller/blind.go <<'EOF'
package controller

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

func blind(ctx context.Context, c client.Client, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	w.Status.Parts = nil
	return c.Status().Patch(ctx, w, client.MergeFrom(base))
}
EOF
while IFS= read -r line; do
	if bash -euo pipefail -c "$line" >"$work/lint.out" 2>&1; then
		cat "$work/lint.out"
		echo "install-test: '$line' passed on a handwritten status write" >&2
		exit 1
	fi
	grep -q 'handwritten status write' "$work/lint.out" ||
		{ cat "$work/lint.out"; echo "install-test: '$line' failed without reporting the write" >&2; exit 1; }
	echo "ok, fails: $line"
done <<<"$(readme_block lint)"$'\n'"make lint-status"
rm internal/controller/blind.go

step "go test ./... (testenv: the API server compiles here, slow on a cold cache)"
go test ./...

step "ok: installed $version from the proxy, no replace directive"
