#!/usr/bin/env bash
# Runs docs/kubebuilder.md's "Steps" as a new user reads them (make
# test-newcomer), in a scratch operator shaped like a kubebuilder v4
# scaffold: api/v1, internal/controller, cmd/main.go, hack/boilerplate.go.txt,
# a PROJECT file (layout go.kubebuilder.io/v4) and kubebuilder v4.15.0's own
# Makefile word for word (cmd/statuspatch-gen/testdata/init/v4.15/before,
# the init goldens' input), no .golangci.yml; pinned as operators pin
# (go 1.25.0, controller-runtime v0.23.1, k8s.io v0.35.0, replace lines),
# from a module proxy built from this checkout (hack/modproxy-env.sh):
#
#  1. README.md's statuspatch-gen install line;
#  2. bin/statuspatch-gen init: -dry-run first writes nothing; then init,
#     which changes no pin (hack/gomod-pins.sh), adds testenv as a direct
#     requirement and a starter test, and makes no make warning;
#  3. make generate: internal/patchers is written; the reconciler still
#     writes status by hand: make lint-status fails, naming internal/patchers;
#  4. the -fix step: docs/kubebuilder.md's -fix line is install-test.sh's; here the script
#     puts the migrated reconciler (the install test's) in place, as the
#     docs' by-hand route says, and runs go mod tidy; both statuspatch
#     modules are then direct requirements; make manifests passes from a
#     checkout without internal/patchers (kubebuilder's test runs manifests
#     before generate);
#  5. the scaffold's own make test (testenv-assets builds envtest's
#     kube-apiserver and etcd through the module proxy; the starter test and
#     the suite run on them) and make lint (lint-status, then the scaffold's
#     golangci-lint, stood in by a script: installing golangci-lint is not
#     this test's subject; docs/kubebuilder.md's plugin route is
#     hack/golangci-plugin/build.sh's and INSTALL_TEST_GOLANGCI=1's);
#  6. init again: nothing to change.
# The tools kubebuilder's Makefile installs that are not statuspatch's
# (controller-gen, golangci-lint) are put in bin/ under the names its
# go-install-tool gives them, so make installs nothing but statuspatch's.
# This machine's Go; cold (empty build cache for the separate module cache,
# testenv-assets' kube-apiserver and etcd not built) it takes tens of
# minutes, mostly the API server's compile.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
die() { echo "newcomer-test: $*" >&2; exit 1; }
[[ -n $version ]] || die "cannot read the version testenv/go.mod requires"
controller_gen=${CONTROLLER_GEN:-$root/bin/controller-gen}
[[ -x $controller_gen ]] || die "$controller_gen not found; run 'make tools' or set CONTROLLER_GEN"
# The scaffold's Makefile reads these with ?=: from the environment, they
# would point it at other binaries than the ones in its bin/.
unset CONTROLLER_GEN ENVTEST GOLANGCI_LINT LOCALBIN KUSTOMIZE STATUSPATCH_GEN STATUSPATCH_LINT STATUSPATCH_VERSION
start=$(date +%s)
step() { echo; echo "=== newcomer-test: $* ($(($(date +%s) - start))s)"; }

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
# shellcheck source=hack/gomod-pins.sh
source "$root/hack/gomod-pins.sh"
step "module proxy at $version"
use_release_proxy "$root" "$version" "$work"
unset KUBEBUILDER_ASSETS

step "the scaffold: a kubebuilder v4 layout, pinned like a real operator, reconciler writing status by hand"
op=$work/operator
mkdir -p "$op"
cp -R "$root/hack/installtest/testdata/operator/." "$op/"
cd "$op"
rm internal/controller/widget_controller_test.go
adopted=$work/widget_controller.go
mv internal/controller/widget_controller.go "$adopted"
cat >internal/controller/widget_controller.go <<'EOF'
// Package controller holds the reconciler as a kubebuilder user wrote it,
// before statuspatch: a blind status patch.
package controller

import (
	"context"
	"fmt"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// WidgetReconciler names one part per unit of spec.size in the status.
type WidgetReconciler struct {
	Client client.Client
}

// SetupWithManager registers the reconciler.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Client = mgr.GetClient()
	return ctrl.NewControllerManagedBy(mgr).For(&widgetsv1.Widget{}).Complete(r)
}

// Reconcile writes the parts list.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var w widgetsv1.Widget
	if err := r.Client.Get(ctx, req.NamespacedName, &w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	w.Status.Parts = nil
	for i := range w.Spec.Size {
		w.Status.Parts = append(w.Status.Parts, fmt.Sprintf("%s-%d", w.Name, i))
	}
	return ctrl.Result{}, r.Client.Status().Patch(ctx, &w, client.MergeFrom(base))
}
EOF
pinned_gomod
go mod tidy || die "go mod tidy failed in the scaffold (above)"
cat >PROJECT <<'EOF'
# Code generated by tool. DO NOT EDIT.
# This file is used to track the info used to scaffold your project
# and allow the plugins properly work.
# More info: https://book.kubebuilder.io/reference/project-config.html
cliVersion: 4.15.0
domain: example.com
layout:
- go.kubebuilder.io/v4
projectName: widgets
repo: example.com/widgets
resources:
- api:
    crdVersion: v1
    namespaced: true
  controller: true
  domain: example.com
  group: widgets
  kind: Widget
  path: example.com/widgets/api/v1
  version: v1
version: "3"
EOF
cp "$root/cmd/statuspatch-gen/testdata/init/v4.15/before/Makefile" Makefile
# controller-gen and golangci-lint as kubebuilder's go-install-tool leaves
# them: bin/NAME-VERSION, and bin/NAME a link to it.
preinstall() {
	local name=$1 version
	version=$(awk -v v="$2" '$1 == v && $2 == "?=" { print $3 }' Makefile)
	[[ -n $version ]] || die "kubebuilder's Makefile has no $2"
	mkdir -p bin
	cp "$3" "bin/$name-$version"
	ln -sf "$PWD/bin/$name-$version" "bin/$name"
}
preinstall controller-gen CONTROLLER_TOOLS_VERSION "$controller_gen"
printf '#!/bin/sh\necho "golangci-lint $* (a stand-in: the scaffold'"'"'s recipe, after lint-status)"\n' >"$work/golangci-lint"
chmod +x "$work/golangci-lint"
preinstall golangci-lint GOLANGCI_LINT_VERSION "$work/golangci-lint"
export PINS_DIR=$work PINS_WHO=newcomer-test
snapshot

step "1. README.md's statuspatch-gen install line"
line=$(sed -n '/<!-- install:begin -->/,/<!-- install:end -->/p' "$root/README.md" | grep -E '^GOBIN=\$PWD/bin go install .*/cmd/statuspatch-gen@')
[[ -n $line ]] || die "README.md's install block has no GOBIN=\$PWD/bin go install line of statuspatch-gen (docs/kubebuilder.md's step 1)"
echo "\$ $line"
bash -euo pipefail -c "$line" || die "README.md's line failed: $line"

step "2. bin/statuspatch-gen init, after -dry-run"
sums() { find . -path ./bin -prune -o -type f -print0 | sort -z | xargs -0 sha256sum; }
sums >"$work/before.sum"
bin/statuspatch-gen init -dry-run | tee "$work/dry-run.out" || die "statuspatch-gen init -dry-run failed (above)"
grep -q '^+++ b/Makefile$' "$work/dry-run.out" || die "init -dry-run printed no diff of the Makefile (above)"
sums | cmp -s - "$work/before.sum" || die "init -dry-run changed files"
bin/statuspatch-gen init || die "statuspatch-gen init failed (above)"
check_pins "init"
grep -qE "^\s*github.com/statuspatch/statuspatch/testenv $version$" go.mod ||
	die "after init, go.mod does not require testenv $version directly (not // indirect): $(grep statuspatch go.mod)"
[[ -f internal/controller/widget_testenv_test.go ]] || die "init wrote no starter test internal/controller/widget_testenv_test.go"

step "3. make generate"
make generate 2>&1 | tee "$work/generate.out" || die "make generate failed (above)"
if grep -E 'overriding recipe|ignoring old recipe' "$work/generate.out"; then
	die "init's Makefile block replaces a recipe of the scaffold's (above); it must compose"
fi
[[ -f internal/patchers/zz_generated.statuspatch.go ]] || die "make generate wrote no internal/patchers/zz_generated.statuspatch.go"
set +e
make lint-status >"$work/lint-before.out" 2>&1
code=$?
set -e
cat "$work/lint-before.out"
[[ $code != 0 ]] || die "make lint-status passed on the handwritten status write"
grep -q 'handwritten status write to Widget: use WidgetStatusPatcher (example.com/widgets/internal/patchers)$' "$work/lint-before.out" ||
	die "before the reconciler imports internal/patchers, the message does not name it (above)"

step "4. the -fix step (by hand until statuspatch-lint -fix migrates: the install test's reconciler), go mod tidy"
cp "$adopted" internal/controller/widget_controller.go
go mod tidy || die "go mod tidy failed after step 4 (above)"
for m in github.com/statuspatch/statuspatch github.com/statuspatch/statuspatch/testenv; do
	grep -qE "^\s*$m $version$" go.mod || die "after step 4 and go mod tidy, go.mod does not require $m $version directly: $(grep statuspatch go.mod)"
done
check_pins "step 4"
rm -r internal/patchers
make manifests || die "make manifests failed from a checkout without internal/patchers (above)"
[[ -f internal/patchers/zz_generated.statuspatch.go ]] || die "make manifests did not run generate-patchers first"

step "5. the scaffold's own make test and make lint"
make test 2>&1 | tee "$work/test.out" || die "the scaffold's make test failed (above)"
grep -qE '^ok\s+example.com/widgets/internal/controller' "$work/test.out" || die "make test did not run internal/controller's tests (above)"
make lint 2>&1 | tee "$work/lint.out" || die "make lint failed (above)"
grep -q 'statuspatch-lint.* \./\.\.\.' "$work/lint.out" || die "make lint did not run lint-status (above)"

step "6. init again changes nothing"
sums >"$work/after.sum"
bin/statuspatch-gen init | tee "$work/again.out" || die "the second init failed (above)"
grep -q 'nothing to change' "$work/again.out" || die "the second init changed files (above)"
sums | cmp -s - "$work/after.sum" || die "the second init changed files: $(sums | diff "$work/after.sum" - || true)"
step "ok: docs/kubebuilder.md's steps, as written, on a kubebuilder-shaped scaffold"
