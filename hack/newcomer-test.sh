#!/usr/bin/env bash
# Runs docs/kubebuilder.md's "Steps" as a new user reads them (make
# test-newcomer), in a scratch operator shaped like a kubebuilder v4
# scaffold (api/v1, internal/controller, cmd/main.go, hack/boilerplate.go.txt,
# a Makefile with LOCALBIN, go-install-tool and kubebuilder's own
# manifests, generate and lint targets) and pinned as operators pin
# (go 1.25.0, controller-runtime v0.23.1, k8s.io v0.35.0, replace lines),
# from a module proxy built from this checkout (hack/modproxy-env.sh):
#
#  1. README.md's two go get lines;
#  2. docs/kubebuilder.md's Makefile block pasted at the end of the Makefile,
#     as it is: make must not warn that it overrides a recipe;
#  3. make generate manifests: internal/patchers is written;
#     before step 4 the reconciler still writes status by hand and does not
#     import internal/patchers: make lint-status fails, and its message names
#     internal/patchers (not "generate a ... with statuspatch-gen");
#  4. the reconciler moves to the generated patcher (the install test's
#     reconciler): go build passes;
#  5. make lint-status passes, and make lint runs it (the block adds it).
# Step 6 (tests on testenv) and the pins are hack/install-test.sh's, which
# runs the same block with Go 1.25; this test uses this machine's Go, so it
# compiles nothing twice and takes a few minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
die() { echo "newcomer-test: $*" >&2; exit 1; }
[[ -n $version ]] || die "cannot read the version testenv/go.mod requires"
controller_gen=${CONTROLLER_GEN:-$root/bin/controller-gen}
[[ -x $controller_gen ]] || die "$controller_gen not found; run 'make tools' or set CONTROLLER_GEN"
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
# kubebuilder v4's Makefile, the parts the block relies on or composes with:
# LOCALBIN, controller-gen, a go-install-tool that works like kubebuilder's
# (one binary per version, linked to the plain name), and the manifests,
# generate and lint targets word for word (lint's golangci-lint stood in
# by a recipe that needs no download).
cat >Makefile <<EOF
LOCALBIN ?= \$(shell pwd)/bin
\$(LOCALBIN):
	mkdir -p \$(LOCALBIN)
CONTROLLER_GEN ?= $controller_gen
.PHONY: controller-gen
controller-gen:
define go-install-tool
@[ -x "\$(1)-\$(3)" ] || { set -e; echo "installing \$(2)@\$(3)"; GOBIN=\$(LOCALBIN) go install \$(2)@\$(3); mv "\$(1)" "\$(1)-\$(3)"; }; ln -sf "\$(1)-\$(3)" "\$(1)"
endef

.PHONY: manifests
manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects.
	"\$(CONTROLLER_GEN)" rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases

.PHONY: generate
generate: controller-gen ## Generate code containing DeepCopy, DeepCopyInto, and DeepCopyObject method implementations.
	"\$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt" paths="./..."

.PHONY: golangci-lint
golangci-lint:
.PHONY: lint
lint: golangci-lint ## Run golangci-lint linter
	@echo "golangci-lint run (the scaffold's recipe, after lint-status)"
EOF

step "1. README.md's go get lines"
mapfile -t gets < <(sed -n '/<!-- install:begin -->/,/<!-- install:end -->/p' "$root/README.md" | grep -E '^go get ')
((${#gets[@]} == 2)) || die "README.md's install block has ${#gets[@]} go get lines, docs/kubebuilder.md's step 1 says two"
for line in "${gets[@]}"; do
	echo "\$ $line"
	bash -euo pipefail -c "$line" || die "README.md's line failed: $line"
done

step "2. docs/kubebuilder.md's Makefile block, pasted at the end as it is"
sed -n '/<!-- makefile:begin -->/,/<!-- makefile:end -->/p' "$root/docs/kubebuilder.md" | grep -vE '^(<!--|```)' >>Makefile
grep -q "STATUSPATCH_VERSION ?= $version" Makefile || die "docs/kubebuilder.md's STATUSPATCH_VERSION is not $version"

step "3. make generate manifests"
make generate manifests 2>&1 | tee "$work/generate.out" || die "make generate manifests failed (above)"
if grep -E 'overriding recipe|ignoring old recipe' "$work/generate.out"; then
	die "the pasted block replaces a recipe of the scaffold's (above); it must compose"
fi
[[ -f internal/patchers/zz_generated.statuspatch.go ]] || die "make generate wrote no internal/patchers/zz_generated.statuspatch.go"
set +e
make lint-status >"$work/before.out" 2>&1
code=$?
set -e
cat "$work/before.out"
[[ $code != 0 ]] || die "make lint-status passed on the handwritten status write"
grep -q 'handwritten status write to Widget: use WidgetStatusPatcher (example.com/widgets/internal/patchers)$' "$work/before.out" ||
	die "before the reconciler imports internal/patchers, the message does not name it (above)"
echo "ok: before the import, the message names internal/patchers"

step "4. the reconciler through patchers.FetchWidgetStatusPatcher and patcher.ForManager"
cp "$adopted" internal/controller/widget_controller.go
go build ./... || die "go build failed after step 4 (above)"

step "5. make lint-status, and make lint runs it"
make lint-status || die "make lint-status failed after the reconciler moved to the patcher (above)"
make lint 2>&1 | tee "$work/lint.out" || die "make lint failed (above)"
grep -q 'statuspatch-lint.* \./\.\.\.' "$work/lint.out" || die "make lint did not run lint-status (above)"
step "ok: docs/kubebuilder.md's steps 1-5, as written, on a kubebuilder-shaped scaffold"
