#!/usr/bin/env bash
# Proves an operator pinned the way operators pin can install and use
# statuspatch from a module proxy without any of its versions moving. It
# builds a file-based proxy holding this checkout's modules at the release
# version (hack/modproxy), then, with the Go of hack/lines.txt's install
# line as the user's go command:
#
#  1. makes a scratch operator module pinned like a real one at the install
#     line (hack/lines.sh gomod): its go line, controller-runtime, k8s.io/api,
#     apimachinery, client-go, and replace directives pinning those and
#     apiextensions-apiserver (as keda and sei-k8s-controller do); whose
#     compile of the API server's libraries with the line's Go hack/compat.sh
#     did in the same module cache (hack/modproxy-env.sh), so the build cache
#     serves it; go mod tidy; records its go.mod;
#  2. runs README.md's install block exactly as written (the runtime and
#     testenv with go get, the tools with GOBIN=$PWD/bin go install, which
#     switches to a Go 1.26 toolchain for them), then docs/kubebuilder.md's
#     generate and lint-status targets inside a kubebuilder-style Makefile
#     with kubebuilder's manifests target: make generate, make manifests and
#     go build twice, from a checkout whose reconciler imports the not yet
#     generated internal/patchers (where controller-gen alone fails); the
#     patchers file has no //go:build line;
#  3. checks after each step that every requirement the module had keeps its
#     version, the go line and toolchain are unchanged and no replace
#     directive was added or changed (new requirements may appear);
#  4. builds, vets, runs README.md's lint block and make lint-status (each
#     must also fail on a handwritten status write), statuspatch-lint -fix
#     as docs/kubebuilder.md gives it (it moves the write onto the generated
#     patcher and exits 0), and tests the reconciler on testenv;
#     With INSTALL_TEST_GOLANGCI=1, also kubebuilder's make lint with
#     docs/kubebuilder.md's golangci-lint plugin wiring (compiles
#     golangci-lint: minutes more);
#     runs docs/testenv.md's full-API build line as written (use -p path
#     module: the release of the operator's k8s.io, found in the cache that
#     make test-assets filled) and outside a module (it must fail);
#  5. checks README.md's two claims about the other routes: with
#     GOTOOLCHAIN=local, go install of a tool stops at "requires go >=
#     1.26.0"; go get -tool raises the module's go line and k8s.io versions.
#
#   hack/install-test.sh            # the version the nested go.mod files require
#   hack/install-test.sh v0.2.0     # another one (after hack/release.sh moved them)
#
# The user's Go: the install line's toolchain, from the module proxy (the
# shared module cache after the first run). GOTOOLCHAIN=path with a PATH
# whose `go` is that toolchain and which also holds this machine's Go 1.26
# as go1.26.N: the go command
# switches toolchains exactly as under GOTOOLCHAIN=auto (a module that needs
# go >= 1.26.0 makes go install pick the newest 1.26 it can find), but finds
# Go 1.26 in PATH instead of downloading it (a user's go command would
# download the newest go1.26.N from proxy.golang.org).
#
# The go command's environment is hack/modproxy-env.sh's: third-party
# modules from the local module cache, then $GOPROXY; a module cache of its
# own, so the first run compiles the API server once more (minutes on 2
# cores, more as the line's Go shares no build cache with the host's Go).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")}
[[ -n $version ]] || { echo "install-test: cannot read the version testenv/go.mod requires" >&2; exit 1; }
die() { echo "install-test: $*" >&2; exit 1; }
# The install line (hack/lines.txt), read before PATH and GOTOOLCHAIN
# change below: the operator's go.mod, the user's Go, and the Kubernetes
# release of its k8s.io (the folder of docs/testenv.md's assets line).
row=$("$root/hack/lines.sh" rows install) || die "cannot read hack/lines.txt's install line (above)"
read -r _ line_cr line_k8s user_go line_go _ <<<"$row"
line_release=1.${line_k8s#v0.}
pinned=$("$root/hack/lines.sh" gomod install example.com/widgets) || die "hack/lines.sh gomod install failed (above)"
# The k8s.io minor go get -tool raises the module to: the tools' (they
# build at the workspace's line).
row=$("$root/hack/lines.sh" rows workspace) || die "cannot read hack/lines.txt's workspace line (above)"
read -r _ _ tool_k8s _ <<<"$row"
tool_k8s=${tool_k8s%.*}

start=$(date +%s)
step() { echo; echo "=== install-test: $* ($(( $(date +%s) - start ))s)"; }

# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
work=$(mktemp -d)
trap 'release_proxy_done; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

step "the user's Go ($user_go) and this machine's Go 1.26, in PATH"
host_go=$(GOTOOLCHAIN=local go env GOVERSION)
[[ $host_go == go1.2[6-9]* || $host_go == go1.[3-9]* ]] ||
	die "this machine's go is $host_go; the tools need Go 1.26 or newer to stand in for the toolchain a user's go command downloads"
user_goroot=$(GOWORK=off GOTOOLCHAIN=$user_go go env GOROOT) ||
	die "cannot get $user_go from the module proxy (GOTOOLCHAIN=$user_go go env GOROOT failed)"
mkdir -p "$work/path"
ln -s "$user_goroot/bin/go" "$work/path/go"
ln -s "$user_goroot/bin/gofmt" "$work/path/gofmt"
ln -s "$(GOTOOLCHAIN=local go env GOROOT)/bin/go" "$work/path/$host_go"

step "module proxy at $version"
use_release_proxy "$root" "$version" "$work"
unset KUBEBUILDER_ASSETS GOROOT
export PATH=$work/path:$PATH GOTOOLCHAIN=path
[[ $(go env GOVERSION) == "$user_go" ]] || die "go in PATH is $(go env GOVERSION), want $user_go"
go version

# readme_block MARKER prints the command lines between
# <!-- MARKER:begin --> and <!-- MARKER:end --> in README.md.
readme_block() {
	sed -n "/<!-- $1:begin -->/,/<!-- $1:end -->/p" "$root/README.md" |
		grep -vE '^(<!--|```|#|[[:space:]]*$)' || true
}
run_block() {
	local lines
	lines=$(readme_block "$1")
	[[ -n $lines ]] || die "README.md has no <!-- $1:begin --> block"
	grep -q "@$version" <<<"$lines" || [[ $1 != install ]] ||
		die "README.md's install block does not install $version"
	while IFS= read -r line; do
		echo "\$ $line"
		bash -euo pipefail -c "$line" || die "README.md's $1 line failed: $line"
	done <<<"$lines"
}

# snapshot and check_pins: what the install may do to the operator's go.mod.
PINS_DIR=$work PINS_WHO=install-test
# shellcheck source=hack/gomod-pins.sh
source "$root/hack/gomod-pins.sh"

step "scratch operator module, pinned like a real one (go $line_go, controller-runtime $line_cr, k8s.io $line_k8s, replace)"
op=$work/operator
mkdir -p "$op"
cp -R "$root/hack/installtest/testdata/operator/." "$op/"
cd "$op"
# The reconciler and its test use statuspatch: they arrive after the install.
mv internal "$work/internal"
printf '%s\n' "$pinned" >go.mod
go mod tidy || die "go mod tidy failed in the pinned operator, before statuspatch (above)"
snapshot
sed -n '/^require (/,/^)/p' go.mod | head -20
for p in k8s.io/api k8s.io/apimachinery k8s.io/client-go sigs.k8s.io/controller-runtime; do
	grep -q "^$p v" "$work/pinned.req" || die "the pinned module does not require $p after go mod tidy"
done
mv "$work/internal" internal

step "README.md's install block"
run_block install
check_pins "README.md's install block"
[[ -x bin/statuspatch-gen && -x bin/statuspatch-lint ]] || die "README.md's install block did not put statuspatch-gen and statuspatch-lint into bin/"
if grep -nE '^(tool|[[:space:]]*github.com/statuspatch/statuspatch/cmd/)' go.mod; then
	die "README.md's install block made the tools requirements of the module (above)"
fi
# The go command ran the tools' builds with Go 1.26 (their go.mod's go line).
go version bin/statuspatch-gen bin/statuspatch-lint

step "generate: docs/kubebuilder.md's Makefile targets and kubebuilder's manifests, twice, from a checkout without patchers"
controller_gen=${CONTROLLER_GEN:-$root/bin/controller-gen}
[[ -x $controller_gen ]] || die "$controller_gen not found; run 'make tools' or set CONTROLLER_GEN"
# A kubebuilder v4 Makefile's frame around the documented block: LOCALBIN, a
# controller-gen target, the manifests target as kubebuilder v4 scaffolds it
# (v4.11 to v4.15, word for word), and a go-install-tool that works the way
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
.PHONY: manifests
manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects.
	"\$(CONTROLLER_GEN)" rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases

.PHONY: generate
generate: controller-gen ## Generate code containing DeepCopy, DeepCopyInto, and DeepCopyObject method implementations.
	"\$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt" paths="./..."
EOF
	sed -n '/<!-- makefile:begin -->/,/<!-- makefile:end -->/p' "$root/docs/kubebuilder.md" | grep -vE '^(<!--|```)'
} >Makefile
grep -q "STATUSPATCH_VERSION ?= $version" Makefile || die "docs/kubebuilder.md's STATUSPATCH_VERSION is not $version"
grep -q 'example.com/widgets/internal/patchers' internal/controller/widget_controller.go ||
	die "the scratch operator's reconciler does not import internal/patchers, the recommended layout"
[[ ! -e internal/patchers ]] || die "internal/patchers exists before make generate; the test starts from a checkout without it"
# controller-gen loads ./..., which holds the reconciler importing the
# missing internal/patchers: it fails unless statuspatch-gen ran first.
if "$controller_gen" object:headerFile="hack/boilerplate.go.txt" paths="./..." >"$work/cg.out" 2>&1; then
	die "controller-gen object passed with internal/patchers missing; docs/kubebuilder.md says it fails (why statuspatch-gen runs first)"
fi
grep -q 'internal/patchers' "$work/cg.out" || { cat "$work/cg.out"; die "controller-gen object failed, but not on the missing internal/patchers (above)"; }
echo "ok: without internal/patchers, controller-gen object fails: $(head -1 "$work/cg.out")"
rm -f bin/statuspatch-gen # the README's go install put it there; go-install-tool must
for round in 1 2; do
	make generate 2>&1 | tee "$work/generate.out" || die "round $round: docs/kubebuilder.md's make generate failed (above)"
	# The block composes with kubebuilder's own generate target (issue 32).
	if grep -E 'overriding recipe|ignoring old recipe' "$work/generate.out"; then
		die "docs/kubebuilder.md's Makefile block replaces a target of kubebuilder's (above); it must only add prerequisites"
	fi
	make manifests || die "round $round: kubebuilder's make manifests failed after make generate (above)"
	go build ./... || die "round $round: go build ./... failed after make generate manifests (above)"
done
[[ -x bin/statuspatch-gen-$version ]] || die "make generate did not install statuspatch-gen $version"
patchers=internal/patchers/zz_generated.statuspatch.go
ls "$patchers" config/crd/bases/widgets.example.com_widgets.yaml config/rbac/role.yaml api/v1/zz_generated.deepcopy.go
[[ ! -e api/v1/zz_generated.statuspatch.go ]] || die "make generate wrote api/v1/zz_generated.statuspatch.go; docs/kubebuilder.md's line has output:dir=./internal/patchers"
if grep -n '^//go:build' "$patchers"; then
	die "$patchers has a //go:build line (above): controller-gen, which loads with ignore_autogenerated, would see internal/patchers without Go files"
fi
check_pins "make generate, make manifests"
go mod tidy || die "go mod tidy failed after make generate (above)"
check_pins "go mod tidy"
grep -E '^\s*github.com/statuspatch/statuspatch' go.mod

step "the lint message before the controller imports the patchers: it names internal/patchers"
# A newcomer's controller before step 4 of docs/kubebuilder.md: it writes
# status by hand and does not import internal/patchers yet.
mkdir -p internal/legacy
cat >internal/legacy/legacy.go <<'EOF'
package legacy

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
if bin/statuspatch-lint ./internal/legacy/ >"$work/legacy.out" 2>&1; then
	die "statuspatch-lint passed on a handwritten status write"
fi
cat "$work/legacy.out"
grep -q 'handwritten status write to Widget: use WidgetStatusPatcher (example.com/widgets/internal/patchers)$' "$work/legacy.out" ||
	die "before the controller imports internal/patchers, the message does not name it (above)"
rm -r internal/legacy

step "build and vet (the generated patchers compile against controller-runtime $line_cr), README.md's lint block, make lint-status"
go build ./... || die "go build ./... failed: the operator with the generated patchers does not compile (above)"
go vet ./... || die "go vet ./... failed in the operator (above)"
rm -f bin/statuspatch-lint # as above: make lint-status installs it with go-install-tool
make lint-status || die "docs/kubebuilder.md's make lint-status failed on an operator without handwritten status writes (above)"
[[ -x bin/statuspatch-lint-$version ]] || die "make lint-status did not install statuspatch-lint $version"
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
		die "'$line' passed on a handwritten status write"
	fi
	grep -q 'handwritten status write' "$work/lint.out" ||
		{ cat "$work/lint.out"; die "'$line' failed without reporting the write"; }
	echo "ok, fails: $line"
done <<<"$(readme_block lint)"$'\n'"make lint-status"
# docs/kubebuilder.md's -fix line: it moves the handwritten write onto the
# generated patcher (NewWidgetStatusPatcher ... Flush), says so, and exits 0
# with no finding left.
cp internal/controller/blind.go "$work/blind.go"
fix_line=$(grep -oE '"\$\(STATUSPATCH_LINT\)" -fix [^`]*' "$root/docs/kubebuilder.md" | head -1)
[[ -n $fix_line ]] || die 'docs/kubebuilder.md has no "$(STATUSPATCH_LINT)" -fix line'
fix_cmd=${fix_line//'"$(STATUSPATCH_LINT)"'/bin/statuspatch-lint}
set +e
bash -euo pipefail -c "$fix_cmd" >"$work/fix.out" 2>&1
code=$?
set -e
cat "$work/fix.out"
[[ $code == 0 ]] || die "'$fix_cmd' exited $code; docs/kubebuilder.md says 0 once every write is moved"
grep -q 'blind.go:[0-9]*: fixed: ' "$work/fix.out" || die "'$fix_cmd' printed no 'blind.go:N: fixed:' line (above)"
grep -q 'NewWidgetStatusPatcher' internal/controller/blind.go && grep -q '\.Flush(ctx)' internal/controller/blind.go ||
	{ cat internal/controller/blind.go; die "'$fix_cmd' did not move blind.go's write onto the generated patcher (above)"; }
! grep -q 'Status()\.Patch' internal/controller/blind.go || die "'$fix_cmd' left a handwritten Status().Patch in blind.go"
go build ./... || die "the operator does not compile after '$fix_cmd' (above)"
bin/statuspatch-lint ./... || die "statuspatch-lint reports findings after '$fix_cmd' moved every write (above)"
echo "ok: $fix_cmd moved the blind patch onto WidgetStatusPatcher, left no finding and exited 0"
rm internal/controller/blind.go

if [[ ${INSTALL_TEST_GOLANGCI:-} == 1 ]]; then
	step "make lint: kubebuilder's lint target with docs/kubebuilder.md's golangci-lint plugin wiring (INSTALL_TEST_GOLANGCI=1)"
	# kubebuilder v4.15's golangci-lint and lint targets, the recipe
	# replaced as docs/kubebuilder.md says, and its .golangci.yml edited as
	# it says (hack/golangci-plugin/testdata).
	wiring=$(sed -n '/^### In kubebuilder/,/^### Other ways/p' "$root/docs/kubebuilder.md" |
		sed -n '/^   ```make/,/^   ```$/p' | grep -v '```' | sed -E 's/^   //')
	grep -q 'hack/golangci-plugin' <<<"$wiring" || die "docs/kubebuilder.md has no golangci-plugin Makefile wiring"
	{
		echo "$wiring"
		printf '.PHONY: golangci-lint\ngolangci-lint: $(GOLANGCI_LINT)\n'
		printf '.PHONY: lint\nlint: golangci-lint ## Run golangci-lint linter\n\t"$(GOLANGCI_LINT)" run\n'
	} >>Makefile
	cp "$root/hack/golangci-plugin/testdata/kubebuilder-v4.15.golangci.yml" .golangci.yml
	cp "$work/blind.go" internal/controller/blind.go
	set +e
	make lint >"$work/golangci.out" 2>&1
	code=$?
	set -e
	tail -20 "$work/golangci.out"
	[[ $code != 0 ]] || die "make lint passed on a handwritten status write"
	grep -qE 'blind\.go:[0-9]+:[0-9]+: handwritten status write.*\(statuspatch\)' "$work/golangci.out" ||
		die "make lint failed without statuspatch reporting blind.go (above)"
	[[ -x bin/golangci-plugin-$version ]] || die "make lint did not install the golangci-lint plugin binary $version"
	rm internal/controller/blind.go .golangci.yml
	echo "ok: make lint (golangci-lint $(bin/golangci-plugin version 2>&1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -1) with the plugin) reported the handwritten status write"
fi

step "go test ./... (testenv: the API server compiles here, slow on a cold cache)"
go test ./... || die "go test ./... failed: the reconciler's test on testenv (above)"
check_pins "go build, go vet, go test"

step "docs/testenv.md's full-API build line, as written: the release of the operator's k8s.io ($line_release; make test-assets built it in CI, else minutes)"
assets_line=$(grep -E '^go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use -p path module$' "$root/docs/testenv.md") ||
	die "docs/testenv.md has no 'go run .../testenv-assets use -p path module' line"
echo "\$ $assets_line"
assets=$(bash -euo pipefail -c "$assets_line") || die "docs/testenv.md's line failed: $assets_line"
[[ $(basename "$assets") == "$line_release"-* && -x $assets/kube-apiserver ]] ||
	die "docs/testenv.md's line printed $assets, want a $line_release folder (the release of k8s.io $line_k8s) holding kube-apiserver"
check_pins "docs/testenv.md's testenv-assets line"
mkdir -p "$work/nomodule"
if (cd "$work/nomodule" && bash -euo pipefail -c "$assets_line") >"$work/nomodule.out" 2>&1; then
	die "docs/testenv.md's line succeeded outside any module; it must fail, saying why"
fi
echo "ok: outside a module it fails: $(head -1 "$work/nomodule.out")"

step "README.md's claims about the other routes"
# GOTOOLCHAIN=local: go install of a tool stops, it does not build with the user's Go.
if GOTOOLCHAIN=local GOBIN=$work/localbin go install "github.com/statuspatch/statuspatch/cmd/statuspatch-lint@$version" >"$work/local.out" 2>&1; then
	die "GOTOOLCHAIN=local go install of statuspatch-lint with $user_go succeeded; README.md says it stops with 'requires go >= 1.26.0'"
fi
grep -q 'requires go >= 1.26.0' "$work/local.out" ||
	{ cat "$work/local.out"; die "GOTOOLCHAIN=local go install failed without 'requires go >= 1.26.0' (above), which README.md quotes"; }
echo "ok: GOTOOLCHAIN=local: $(tail -1 "$work/local.out")"
# docs/kubebuilder.md's install targets say what to set instead.
if GOTOOLCHAIN=local make LOCALBIN="$work/localbin" statuspatch-lint >"$work/local-make.out" 2>&1; then
	die "GOTOOLCHAIN=local make statuspatch-lint with $user_go succeeded; docs/kubebuilder.md says it stops"
fi
grep -q 'run make with GOTOOLCHAIN=go1.26.0+auto (or auto)' "$work/local-make.out" ||
	{ cat "$work/local-make.out"; die "GOTOOLCHAIN=local make statuspatch-lint failed without saying what to set (above)"; }
echo "ok: GOTOOLCHAIN=local make statuspatch-lint: $(grep -m1 'need Go 1.26' "$work/local-make.out")"
# go get -tool, on a copy: it raises the go line and the k8s.io versions.
cp -R "$op" "$work/tool-route"
(
	cd "$work/tool-route"
	go get -tool "github.com/statuspatch/statuspatch/cmd/statuspatch-gen@$version" 2>&1 | grep -v '^go: downloading' || true
	echo "go get -tool: $(golines | tr '\n' ' '); $(requirements | grep -E '^k8s.io/(apimachinery|apiextensions-apiserver) ' | tr '\n' ' ')"
	awk '$1 == "go" { exit !($2 == "1.26.0") }' go.mod ||
		die "go get -tool left the go line at $(awk '$1 == "go" { print $2 }' go.mod); README.md says it becomes 1.26.0"
	# not `requirements | grep -q`: under pipefail, grep -q exiting at its
	# first match can SIGPIPE the writer and fail the pipeline.
	[[ $(requirements | awk '$1 == "k8s.io/apimachinery" { print $2 }') == "$tool_k8s".* ]] ||
		die "go get -tool left k8s.io/apimachinery at $(requirements | awk '$1 == "k8s.io/apimachinery" { print $2 }'); README.md says $tool_k8s"
)
echo "ok: go get -tool raised the go line to 1.26.0 and k8s.io/apimachinery to $tool_k8s, as README.md says"

step "ok: installed $version from the proxy with $user_go; the operator's versions did not move"
