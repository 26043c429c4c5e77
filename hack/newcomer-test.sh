#!/usr/bin/env bash
# Runs docs/kubebuilder.md's "Steps" as a new user reads them (make
# test-newcomer), in a scratch operator shaped like a kubebuilder v4
# scaffold at one supported line, or at several one after another:
#
#   hack/newcomer-test.sh [LINE]     # LINE: a line of hack/lines.txt, or a
#                                    # selector of hack/lines.sh (default:
#                                    # install, the install line)
#   hack/newcomer-test.sh LINE LINE...  or  hack/newcomer-test.sh all
#
# With several lines (all: every supported line of hack/lines.txt, as make
# test-newcomer runs by default), each line is a run of this script on its
# own; each line's wall time and the load are printed as it ends, then a
# summary, and the run fails naming every line that failed.
#
# The line's controller-runtime, k8s.io and Go toolchain are
# hack/lines.txt's (docs/compatibility.md's matrix, one home): the
# scaffold's go.mod pins controller-runtime and k8s.io there by require and
# by replace (hack/lines.sh gomod), says `go 1.NN.0` of the line's Go, and
# every command runs as a user whose installed Go is that toolchain would
# run it (GOTOOLCHAIN=path,
# as in hack/install-test.sh: the statuspatch tools' go 1.26 line switches
# to this machine's Go 1.26, where that user's go command would download
# the newest go1.26.N).
# The scaffold's make test builds no kube-apiserver or etcd: init moves
# kubebuilder's suite_test.go onto testenv's in-process server (the
# scaffold has no webhooks) and drops setup-envtest from make test, so
# make test pays the scaffold's own compile only. envtest's binaries are
# still checked, after make test and make lint, as a user who wants the
# full API gets them: make setup-envtest, its output exported as
# KUBEBUILDER_ASSETS, and the suite on envtest. Their Kubernetes: the
# scaffold's Makefile derives ENVTEST_K8S_VERSION from k8s.io/api
# (hack/lines.txt's envtest column) with ?=. The line whose k8s.io is the
# release make test-assets builds (the root Makefile's
# TESTENV_ASSETS_VERSION: the install line's) runs with its own; every
# other line runs make setup-envtest ENVTEST_K8S_VERSION=<the install
# line's release>.x (a make variable a user can pass the same way), which
# finds the kube-apiserver and etcd make test-assets built instead of
# building the line's own from source (about 20 minutes more a line cold:
# docs/benchmarks.md). NEWCOMER_ENVTEST_K8S_VERSION sets the release
# (default: TESTENV_ASSETS_VERSION's default, hack/lines.sh assets);
# NEWCOMER_ENVTEST_K8S_VERSION=line uses each line's own derived version,
# building each line's binaries. The scaffold: api/v1,
# internal/controller (a reconciler with five handwritten status writes the
# ways kubebuilder users write them: a blind MergeFrom patch, a helper's
# locked one, then Update, a re-Get and a client.Merge patch, and a
# server-side apply), kubebuilder v4.15.0's internal/controller/suite_test.go
# word for word as it scaffolds it for this project and its controller
# test (hack/installtest/testdata/kubebuilder; the test's reconciler has no
# Scheme field), cmd/main.go, hack/boilerplate.go.txt, a PROJECT file (layout
# go.kubebuilder.io/v4, no webhooks) and kubebuilder v4.15.0's own Makefile word for
# word (cmd/statuspatch-gen/internal/scaffold/testdata/init/v4.15/before, the init goldens'
# input), no .golangci.yml; statuspatch from a module proxy built from this
# checkout (hack/modproxy-env.sh):
#
#  1. README.md's statuspatch-gen install line;
#  2. bin/statuspatch-gen init: -dry-run first writes nothing; then init,
#     which changes no pin (hack/gomod-pins.sh), adds testenv as a direct
#     requirement and a starter test, and makes no make warning;
#  3. make generate: internal/patchers is written; the reconciler still
#     writes status by hand: make lint-status fails, naming internal/patchers
#     (its binary is then removed: step 4 installs it as the docs say);
#  4. the -fix step: the lines of docs/kubebuilder.md's fix block, as
#     written (make statuspatch-lint, bin/statuspatch-lint -fix ./...,
#     go mod tidy): all five writes move onto WidgetStatusPatcher, -fix exits
#     0, no pin moves, both statuspatch modules are direct requirements;
#     make manifests passes from a checkout without internal/patchers
#     (kubebuilder's test runs manifests before generate);
#  5. the scaffold's own make test (the Ginkgo suite, which init moved onto
#     testenv.StartServer, and the starter test run on testenv's in-process
#     server: nothing installs testenv-assets or builds a kube-apiserver;
#     go test -v of the suite, as an IDE runs it, says "embedded API
#     server") and make lint (lint-status, then the scaffold's
#     golangci-lint, stood in by a script: installing golangci-lint is not
#     this test's subject; docs/kubebuilder.md's plugin route is
#     hack/golangci-plugin/build.sh's and INSTALL_TEST_GOLANGCI=1's); then
#     the full API as docs/kubebuilder.md gives it: make setup-envtest
#     (testenv-assets, the release above), its folder as KUBEBUILDER_ASSETS,
#     and the suite on envtest;
#  6. init again: nothing to change.
# The tools kubebuilder's Makefile installs that are not statuspatch's
# (controller-gen, golangci-lint) are put in bin/ under the names its
# go-install-tool gives them, so make installs nothing but statuspatch's.
# Cold (empty build cache for the separate module cache, testenv-assets'
# kube-apiserver and etcd of the line not built) it takes tens of minutes,
# mostly the API server's compile in step 5b (make setup-envtest), after
# the timed make test: docs/benchmarks.md has the figures.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
die() { echo "newcomer-test: $*" >&2; exit 1; }
[[ -n $version ]] || die "cannot read the version testenv/go.mod requires"
# hack/lines.txt's supported lines (the one home of the matrix): the
# lines named, or selected (older, install ...), each once.
if [[ $# == 1 && $1 == all ]]; then
	set -- supported
fi
(($#)) || set -- install
lines=$("$root/hack/lines.sh" names "$@") || die "usage: hack/newcomer-test.sh [LINE...|all] (hack/lines.txt's lines, or a selector of hack/lines.sh; default install)"
mapfile -t picked <<<"$lines"
set -- "${picked[@]}"

# Several lines: each a run of this script on its own, timed.
if [[ $# -gt 1 ]]; then
	summary=() failed=()
	i=0
	for l in "$@"; do
		i=$((i + 1))
		echo "=== newcomer-test: line $l ($i of $#) starts, load $(cut -d' ' -f1-3 /proc/loadavg)"
		t0=$(date +%s)
		set +e
		"$root/hack/newcomer-test.sh" "$l"
		code=$?
		set -e
		dt=$(($(date +%s) - t0))
		result="line $l: $( ((code == 0)) && echo ok || echo "FAILED (exit $code)"), $((dt / 60)) min $((dt % 60)) s, load $(cut -d' ' -f1-3 /proc/loadavg) at its end"
		summary+=("$result")
		((code == 0)) || failed+=("$l")
		echo "=== newcomer-test: $result"
	done
	echo
	echo "=== newcomer-test: $# lines"
	printf '  %s\n' "${summary[@]}"
	((${#failed[@]} == 0)) || die "failed at line(s) ${failed[*]} (each line's output above; rerun one with hack/newcomer-test.sh LINE or make test-newcomer NEWCOMER_LINE=LINE)"
	exit 0
fi

line=$1
row=$("$root/hack/lines.sh" rows "$line") || die "cannot read line $line of hack/lines.txt"
read -r _ line_cr line_k8s line_toolchain line_go line_envtest roles <<<"$row"
[[ $roles != below ]] || die "line $line is below the floor: not supported"
# The scaffold's go.mod, read now: hack/lines.sh needs Go 1.26, and PATH's
# go becomes the line's below.
gomod=$("$root/hack/lines.sh" gomod "$line" example.com/widgets) || die "hack/lines.sh gomod $line failed"
# envtest's Kubernetes at this line (header comment): its own derived
# version when that is the release make test-assets builds, else that
# release by make variable.
envtest=${NEWCOMER_ENVTEST_K8S_VERSION:-$("$root/hack/lines.sh" assets)}
[[ -n $envtest ]] || die "no NEWCOMER_ENVTEST_K8S_VERSION, and hack/lines.sh assets printed nothing"
if [[ $envtest == line || $(sed -E 's/^v?(1\.[0-9]+)([.].*)?$/\1/' <<<"$envtest") == "$line_envtest" ]]; then
	setup_envtest=(make -s setup-envtest)
	envtest_note="its own ENVTEST_K8S_VERSION, $line_envtest (the scaffold's Makefile derives it from k8s.io/api $line_k8s)"
	envtest_want=$line_envtest
else
	setup_envtest=(make -s setup-envtest "ENVTEST_K8S_VERSION=$envtest")
	envtest_note="ENVTEST_K8S_VERSION=$envtest on make setup-envtest's command line (NEWCOMER_ENVTEST_K8S_VERSION; by default the install line's release, the root Makefile's TESTENV_ASSETS_VERSION, whose kube-apiserver and etcd make test-assets builds), not the line's own $line_envtest (NEWCOMER_ENVTEST_K8S_VERSION=line builds and runs those: about 20 min more a line cold)"
	envtest_want=$envtest
fi
controller_gen=${CONTROLLER_GEN:-$root/bin/controller-gen}
[[ -x $controller_gen ]] || die "$controller_gen not found; run 'make tools' or set CONTROLLER_GEN"
# The scaffold's Makefile reads these with ?=: from the environment, they
# would point it at other binaries than the ones in its bin/.
unset CONTROLLER_GEN ENVTEST GOLANGCI_LINT LOCALBIN KUSTOMIZE STATUSPATCH_GEN STATUSPATCH_LINT STATUSPATCH_VERSION
start=$(date +%s)
step() { echo; echo "=== newcomer-test: $* ($(($(date +%s) - start))s)"; }

# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
work=$(mktemp -d)
trap 'release_proxy_done; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
# shellcheck source=hack/gomod-pins.sh
source "$root/hack/gomod-pins.sh"
# The user's Go is the line's, as hack/install-test.sh sets it up:
# GOTOOLCHAIN=path with a PATH whose `go` is the line's toolchain (from the
# module proxy) and which also holds this machine's Go 1.26 as go1.26.N, so
# the tools' go 1.26 line switches to it as GOTOOLCHAIN=auto would switch
# to the newest go1.26.N, without downloading one more toolchain.
host_go=$(GOTOOLCHAIN=local go env GOVERSION)
[[ $host_go == go1.2[6-9]* || $host_go == go1.[3-9]* ]] ||
	die "this machine's go is $host_go; the tools need Go 1.26 or newer to stand in for the toolchain a user's go command downloads"
line_goroot=$(GOWORK=off GOTOOLCHAIN=$line_toolchain go env GOROOT) ||
	die "cannot get $line_toolchain from the module proxy (GOTOOLCHAIN=$line_toolchain go env GOROOT failed)"
mkdir -p "$work/path"
ln -s "$line_goroot/bin/go" "$work/path/go"
ln -s "$line_goroot/bin/gofmt" "$work/path/gofmt"
[[ $host_go == "$line_toolchain" ]] || ln -s "$(GOTOOLCHAIN=local go env GOROOT)/bin/go" "$work/path/$host_go"
step "module proxy at $version"
use_release_proxy "$root" "$version" "$work"
unset KUBEBUILDER_ASSETS GOROOT
export PATH=$work/path:$PATH GOTOOLCHAIN=path
[[ $(go env GOVERSION) == "$line_toolchain" ]] || die "go in PATH is $(go env GOVERSION), want $line_toolchain"

step "the scaffold at line $line (controller-runtime $line_cr, k8s.io $line_k8s, go $line_go, $(go env GOVERSION); step 5's envtest with $envtest_note): a kubebuilder v4 layout, reconciler writing status by hand"
op=$work/operator
mkdir -p "$op"
cp -R "$root/hack/installtest/testdata/operator/." "$op/"
cd "$op"
rm internal/controller/widget_controller_test.go
# kubebuilder's Ginkgo suite and controller test, as it scaffolds them
cp -R "$root/hack/installtest/testdata/kubebuilder/." "$op/"
cat >internal/controller/widget_controller.go <<'EOF'
// Package controller holds the reconciler as a kubebuilder user wrote it,
// before statuspatch: a blind merge patch, a helper's patch with the
// optimistic lock, then (markReady) an Update, kubebuilder's re-fetch and
// a blind client.Merge patch, then (summarize, widget_summary.go) a
// server-side apply.
package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets,verbs=get;list;watch
// +kubebuilder:rbac:groups=widgets.example.com,resources=widgets/status,verbs=get;update;patch

// Reconcile writes the parts list, then the generation it describes.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &widgetsv1.Widget{}
	if err := r.Client.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	base := w.DeepCopy()
	w.Status.Parts = nil
	for i := range w.Spec.Size {
		w.Status.Parts = append(w.Status.Parts, fmt.Sprintf("%s-%d", w.Name, i))
	}
	if err := r.Client.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.markObserved(ctx, w); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.markReady(ctx, req.NamespacedName); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.summarize(ctx, req.NamespacedName)
}

// markReady sets Ready on a fresh read, then re-fetches before updating
// the status again, as kubebuilder's scaffolds do.
func (r *WidgetReconciler) markReady(ctx context.Context, key client.ObjectKey) error {
	w := &widgetsv1.Widget{}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "PartsNamed"})
	if err := r.Client.Status().Update(ctx, w); err != nil {
		return err
	}
	if err := r.Client.Get(ctx, key, w); err != nil {
		return err
	}
	w.Status.ObservedGeneration = w.Generation
	return r.Client.Status().Patch(ctx, w, client.Merge)
}

// markObserved records the generation the status describes.
func (r *WidgetReconciler) markObserved(ctx context.Context, w *widgetsv1.Widget) error {
	base := w.DeepCopy()
	w.Status.ObservedGeneration = w.Generation
	return r.Client.Status().Patch(ctx, w, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}
EOF
# go.mod pinned as operators pin, at the line: require and replace.
printf '%s\n' "$gomod" >go.mod
# (Ginkgo and Gomega, which the suite imports, at the versions the line's
# controller-runtime requires: kubebuilder v4.15.0's own pins need Go 1.26.)
go mod tidy || die "go mod tidy failed in the scaffold (above)"
# At the line the workspace builds (examples/go.mod's controller-runtime and
# k8s.io), every module the scaffold shares with the workspace takes the
# workspace's version (hack/workspace-versions.sh, as hack/compat.sh's
# testenv.mod at that line), not tidy's lower one: a go.mod a user could
# have as well, and the build cache then serves make test's compile of
# controller-runtime and the API server's libraries instead of a second one
# (minutes cold). Other lines match test-compat's versions as tidy makes them.
# (GOWORK is off for the scaffold; the workspace's versions are go.work's.)
# shellcheck source=hack/workspace-versions.sh
source "$root/hack/workspace-versions.sh"
workspace_line=0
if GOWORK= is_workspace_line "$line_cr" "$line_k8s"; then
	workspace_line=1
	GOWORK= workspace_versions go.mod || die "the scaffold at the workspace's versions (hack/workspace-versions.sh) failed (above)"
fi
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
cp "$root/cmd/statuspatch-gen/internal/scaffold/testdata/init/v4.15/before/Makefile" Makefile
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
# The server-side apply status write, set up as kubebuilder's
# `create api --ssa` sets it up (kubebuilder's master, after v4.15.0:
# pkg/plugins/golang/v4/scaffolds/api.go): the package's
# +kubebuilder:ac:generate=true, the kind's +genclient and
# +kubebuilder:resource:path, applyconfiguration in the manifests target;
# the apply configurations generated as that target generates them
# (api/v1/applyconfiguration/api/v1), and a reconciler that applies a
# status field of its own. That is where the line's controller-runtime has
# the status subresource's Apply (SubResourceWriter.Apply); below it
# a user's status apply is the typed client.Apply patch of a new
# Widget, and summarize writes that.
sed -i 's|^\tConditions \[\]metav1.Condition `json:"conditions,omitempty"`$|&\n\t// Summary says how many parts the widget has.\n\t// +optional\n\tSummary string `json:"summary,omitempty"`|' api/v1/widget_types.go
grep -q 'Summary string' api/v1/widget_types.go || die "the scaffold's WidgetStatus got no Summary field"
cr_dir=$(go mod download -json "sigs.k8s.io/controller-runtime@$line_cr" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -f $cr_dir/pkg/client/interfaces.go ]] || die "cannot find controller-runtime $line_cr's source in the module cache"
if grep -q 'SubResourceApplyOption) error' "$cr_dir/pkg/client/interfaces.go"; then
	sed -i 's|^// +kubebuilder:object:generate=true$|&\n// +kubebuilder:ac:generate=true|' api/v1/groupversion_info.go
	sed -i -e '/^\/\/ Widget is the install test.s one kind\.$/a // +genclient' \
		-e '/^\/\/ +kubebuilder:subresource:status$/a // +kubebuilder:resource:path=widgets' api/v1/widget_types.go
	sed -i -e 's|^\(manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects\)\.$|\1 and ApplyConfiguration types.|' \
		-e '/^\t"$(CONTROLLER_GEN)" rbac:roleName=manager-role crd webhook /s|crd webhook |crd webhook applyconfiguration:headerFile="hack/boilerplate.go.txt" |' Makefile
	{ grep -q 'ac:generate=true' api/v1/groupversion_info.go &&
		[[ $(grep -c '+genclient\|+kubebuilder:resource:path=widgets\|Summary string' api/v1/widget_types.go) == 3 ]] &&
		grep -q 'ApplyConfiguration types\.$' Makefile && grep -q 'crd webhook applyconfiguration:headerFile=' Makefile; } ||
		die "the --ssa set-up did not edit groupversion_info.go, widget_types.go and the Makefile's manifests target as kubebuilder's create api --ssa does"
	bin/controller-gen applyconfiguration:headerFile="hack/boilerplate.go.txt" paths="./api/..." || die "controller-gen applyconfiguration failed (above)"
	[[ -f api/v1/applyconfiguration/api/v1/widget.go ]] || die "controller-gen wrote no api/v1/applyconfiguration/api/v1/widget.go"
	cat >internal/controller/widget_summary.go <<'EOF'
package controller

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
	widgetsac "example.com/widgets/api/v1/applyconfiguration/api/v1"
)

// summarize applies the summary by server-side apply, with the apply
// configurations kubebuilder's --ssa generates, under a field owner of its
// own.
func (r *WidgetReconciler) summarize(ctx context.Context, key client.ObjectKey) error {
	var w widgetsv1.Widget
	if err := r.Client.Get(ctx, key, &w); err != nil {
		return err
	}
	ac := widgetsac.Widget(key.Name, key.Namespace).
		WithStatus(widgetsac.WidgetStatus().WithSummary(fmt.Sprintf("%d parts", len(w.Status.Parts))))
	return r.Client.Status().Apply(ctx, ac, client.FieldOwner("widget-summary"), client.ForceOwnership)
}
EOF
	go mod tidy || die "go mod tidy failed in the scaffold after the apply configurations (above)"
else
	echo "newcomer-test: controller-runtime $line_cr has no status Apply (SubResourceWriter.Apply): the scaffold's server-side apply is the typed client.Apply patch"
	cat >internal/controller/widget_summary.go <<'EOF'
package controller

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	widgetsv1 "example.com/widgets/api/v1"
)

// summarize applies the summary by server-side apply of a new typed
// Widget, under a field owner of its own: this controller-runtime's status
// writer has no Apply.
func (r *WidgetReconciler) summarize(ctx context.Context, key client.ObjectKey) error {
	var w widgetsv1.Widget
	if err := r.Client.Get(ctx, key, &w); err != nil {
		return err
	}
	applied := &widgetsv1.Widget{
		TypeMeta:   metav1.TypeMeta{APIVersion: widgetsv1.GroupVersion.String(), Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{Name: w.Name, Namespace: w.Namespace},
	}
	applied.Status.Summary = fmt.Sprintf("%d parts", len(w.Status.Parts))
	return r.Client.Status().Patch(ctx, applied, client.Apply, client.FieldOwner("widget-summary"), client.ForceOwnership)
}
EOF
fi
writes=5
export PINS_DIR=$work PINS_WHO=newcomer-test
snapshot

step "1. README.md's statuspatch-gen install line"
install_line=$(sed -n '/<!-- install:begin -->/,/<!-- install:end -->/p' "$root/README.md" | grep -E '^GOBIN=\$PWD/bin go install .*/cmd/statuspatch-gen@')
[[ -n $install_line ]] || die "README.md's install block has no GOBIN=\$PWD/bin go install line of statuspatch-gen (docs/kubebuilder.md's step 1)"
echo "\$ $install_line"
bash -euo pipefail -c "$install_line" || die "README.md's line failed: $install_line"

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
# Step 4 installs the linter as the docs say: not from this check.
rm -f bin/statuspatch-lint bin/statuspatch-lint-*

step "4. the -fix step: docs/kubebuilder.md's fix block, line by line as written"
mapfile -t fix_lines < <(sed -n '/<!-- fix:begin -->/,/<!-- fix:end -->/p' "$root/docs/kubebuilder.md" | sed -E 's/^[[:space:]]+//' | grep -vE '^(<!--|```|$)')
((${#fix_lines[@]} > 0)) || die "docs/kubebuilder.md has no fix block (<!-- fix:begin --> ... <!-- fix:end -->)"
printf '%s\n' "${fix_lines[@]}" | grep -q '^bin/statuspatch-lint -fix ' || die "docs/kubebuilder.md's fix block has no bin/statuspatch-lint -fix line"
for cmd in "${fix_lines[@]}"; do
	echo "\$ $cmd"
	set +e
	bash -euo pipefail -c "$cmd" 2>&1 | tee "$work/fix.out"
	code=${PIPESTATUS[0]}
	set -e
	[[ $code == 0 ]] || die "'$cmd' (docs/kubebuilder.md's fix block) exited $code (above); the docs say -fix exits 0 once every write is moved"
	if [[ $cmd == bin/statuspatch-lint\ -fix* ]]; then
		n=$(grep -cE 'widget_(controller|summary)\.go:[0-9:]*: fixed: ' "$work/fix.out" || true)
		[[ $n == "$writes" ]] || die "'$cmd' printed $n 'widget_controller.go:N: fixed:' or 'widget_summary.go:N: fixed:' lines, want $writes: the blind write, the optimistic one, the Update, the client.Merge patch and the server-side apply (above)"
	fi
done
reconciler=(internal/controller/widget_controller.go internal/controller/widget_summary.go)
! grep -n 'Status()\.\(Patch\|Update\|Apply\)' "${reconciler[@]}" ||
	die "a handwritten status write is left in the reconciler after the fix block (above)"
count() { cat "${reconciler[@]}" | grep -c "$1" || true; }
[[ $(count 'patchers\.NewWidgetStatusPatcher(') == 4 &&
	$(count 'patchers\.FetchWidgetStatusPatcher(') == 1 &&
	$(count '\.Flush(ctx)') == "$writes" &&
	$(count 'patcher\.WithWriteMode(patcher\.WriteApply), patcher\.WithFieldOwner("widget-summary")') == 1 &&
	$(count '\.Patcher()\.ApplyStatus(\(ac\|applied\)\.Status)') == 1 ]] ||
	{ cat "${reconciler[@]}"; die "the fix block did not move the $writes writes onto NewWidgetStatusPatcher (4), FetchWidgetStatusPatcher (the re-fetch) and Flush ($writes), the apply in apply mode under its field owner with ApplyStatus (above)"; }
cat "${reconciler[@]}"
for m in github.com/statuspatch/statuspatch github.com/statuspatch/statuspatch/testenv; do
	grep -qE "^\s*$m $version$" go.mod || die "after the fix block, go.mod does not require $m $version directly: $(grep statuspatch go.mod)"
done
check_pins "step 4"
rm -r internal/patchers
make manifests || die "make manifests failed from a checkout without internal/patchers (above)"
[[ -f internal/patchers/zz_generated.statuspatch.go ]] || die "make manifests did not run generate-patchers first"

step "5. the scaffold's own make test and make lint: \$ make test (the suite on testenv's in-process server, no envtest binaries)"
[[ -d internal/controller && $(grep -c 'testenv.StartServer(' internal/controller/suite_test.go) == 1 ]] ||
	die "init did not move internal/controller/suite_test.go onto testenv.StartServer: $(cat internal/controller/suite_test.go)"
t0=$(date +%s)
make test 2>&1 | tee "$work/test.out" || die "the scaffold's make test failed (above)"
first=$(($(date +%s) - t0))
grep -qE '^ok\s+example.com/widgets/internal/controller' "$work/test.out" || die "make test did not run internal/controller's tests (above)"
! grep -E 'Setting up envtest binaries|testenv-assets' "$work/test.out" || die "make test set up envtest's binaries (above)"
! compgen -G 'bin/testenv-assets*' >/dev/null && [[ ! -e bin/k8s ]] ||
	die "make test installed testenv-assets or linked envtest's binaries: $(ls bin)"
# As an IDE runs it: no binaries, no make; the suite says which server.
go test -count=1 -v ./internal/controller/ -run TestControllers -ginkgo.v 2>&1 | tee "$work/suite.out" ||
	die "go test of the suite without make failed (above)"
grep -qF 'testenv: embedded API server (KUBEBUILDER_ASSETS is not set)' "$work/suite.out" ||
	die "the suite did not run on testenv's embedded API server (above)"
grep -q 'Ran 1 of 1 Specs' "$work/suite.out" || die "the suite did not run kubebuilder's controller test (above)"
make lint 2>&1 | tee "$work/lint.out" || die "make lint failed (above)"
grep -q 'statuspatch-lint.* \./\.\.\.' "$work/lint.out" || die "make lint did not run lint-status (above)"
# What a user waits for: the first make test of the new project (with the
# caches this machine has: in CI, make test's and test-assets'; cold, every
# cache empty: docs/benchmarks.md), and, at the workspace's line, make test
# again after an edit of the controller (the loop a user lives in; goal:
# 1 minute).
timing="the scaffold's first make test: ${first}s"
if ((workspace_line)); then
	echo "// edited" >>internal/controller/widget_controller.go
	t0=$(date +%s)
	make test >"$work/test2.out" 2>&1 || { cat "$work/test2.out"; die "make test after an edit failed (above)"; }
	timing+="; again after an edit of the controller: $(($(date +%s) - t0))s"
	sed -i '$d' internal/controller/widget_controller.go
fi
step "$timing"

step "5b. the full API, for who wants it: \$ ${setup_envtest[*]}, its folder as KUBEBUILDER_ASSETS, then the suite on envtest ($envtest_note)"
"${setup_envtest[@]}" >"$work/setup-envtest.out" 2>&1 || { cat "$work/setup-envtest.out"; die "${setup_envtest[*]} failed (above)"; }
cat "$work/setup-envtest.out"
grep -qF "Setting up envtest binaries for Kubernetes version $envtest_want..." "$work/setup-envtest.out" ||
	die "make setup-envtest did not set up envtest's binaries for Kubernetes $envtest_want (above)"
assets=$(tail -n 1 "$work/setup-envtest.out")
[[ -x $assets/kube-apiserver && $assets == "$PWD/bin/k8s/"* ]] || die "make setup-envtest's last line, $assets, is not a bin/k8s folder with kube-apiserver"
# docs/kubebuilder.md's two lines as written: the export, then make test.
(export KUBEBUILDER_ASSETS="$assets" && make test) >"$work/make-test-envtest.out" 2>&1 ||
	{ cat "$work/make-test-envtest.out"; die "make test with KUBEBUILDER_ASSETS=$assets exported failed (above)"; }
KUBEBUILDER_ASSETS=$assets go test -count=1 -v ./internal/controller/ -run TestControllers -ginkgo.v 2>&1 | tee "$work/suite-envtest.out" ||
	die "the suite with KUBEBUILDER_ASSETS=$assets failed (above)"
grep -qF "testenv: envtest API server (KUBEBUILDER_ASSETS=$assets selects envtest" "$work/suite-envtest.out" ||
	die "with KUBEBUILDER_ASSETS exported, the suite did not run on envtest (above)"

step "6. init again changes nothing"
sums >"$work/after.sum"
bin/statuspatch-gen init | tee "$work/again.out" || die "the second init failed (above)"
grep -q 'nothing to change' "$work/again.out" || die "the second init changed files (above)"
sums | cmp -s - "$work/after.sum" || die "the second init changed files: $(sums | diff "$work/after.sum" - || true)"
step "ok: docs/kubebuilder.md's steps, as written, on a kubebuilder-shaped scaffold"
