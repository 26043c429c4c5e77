#!/usr/bin/env bash
# Adoption at each older supported line, from a module proxy built from this
# checkout (as a release would serve it): a scratch module pinned the way
# operators pin (its go line, controller-runtime and k8s.io by require and by
# replace) runs the README's `go get` lines with that line's Go; then no
# requirement it had moves, its go line and replace directives stay as they
# were, and it builds with the runtime in it.
#
#   hack/adopt-lines.sh            # every line older than the workspace's
#   hack/adopt-lines.sh LINE...    # the named ones (hack/lines.txt's lines,
#                                  # or a selector of hack/lines.sh)
#
# make test-install runs it after hack/install-test.sh, which takes the
# install line all the way (the tools, generate, lint, tests on testenv);
# hack/compat.sh runs testenv's and the generated code's tests at every line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '$1 == "github.com/statuspatch/statuspatch" { print $2 }' "$root/testenv/go.mod")
[[ -n $version ]] || { echo "adopt-lines: cannot read the version testenv/go.mod requires" >&2; exit 1; }

# The lines (controller-runtime, k8s.io, the go line and the user's Go) are
# hack/lines.txt's, as hack/compat.sh tests them: in the one module cache
# (hack/modproxy-env.sh) the build cache then serves each line's compile of
# controller-runtime and client-go from test-compat's.
rows=$("$root/hack/lines.sh" rows "${@:-older}") || { echo "adopt-lines: cannot read hack/lines.txt's lines (above)" >&2; exit 1; }
K8S=(api apimachinery client-go)

# shellcheck source=hack/modproxy-env.sh
source "$root/hack/modproxy-env.sh"
work=$(mktemp -d)
trap 'release_proxy_done; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
use_release_proxy "$root" "$version" "$work" >/dev/null

# The README's go get lines, as written.
mapfile -t gets < <(sed -n '/<!-- install:begin -->/,/<!-- install:end -->/p' "$root/README.md" | grep -E '^go get ')
((${#gets[@]} >= 2)) || { echo "adopt-lines: README.md's install block has ${#gets[@]} go get lines, want the runtime's and testenv's" >&2; exit 1; }

PINS_WHO=adopt-lines
# shellcheck source=hack/gomod-pins.sh
source "$root/hack/gomod-pins.sh"

adopt() {
	local line=$1 cr=$2 k8s=$3 goline=$4 toolchain=$5 dir=$work/$1 start=$SECONDS
	echo "=== adopt-lines: $line: go $goline, controller-runtime $cr, k8s.io $k8s (require and replace), $toolchain"
	mkdir -p "$dir"
	cd "$dir"
	export GOTOOLCHAIN=$toolchain
	{
		echo "module example.com/adopt"
		echo
		echo "go $goline"
		echo
		echo "require sigs.k8s.io/controller-runtime $cr"
		for p in "${K8S[@]}"; do echo "require k8s.io/$p $k8s"; done
		echo "replace sigs.k8s.io/controller-runtime => sigs.k8s.io/controller-runtime $cr"
		for p in "${K8S[@]}"; do echo "replace k8s.io/$p => k8s.io/$p $k8s"; done
	} >go.mod
	cat >main.go <<'EOF'
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() { _ = ctrl.NewManager }
EOF
	go mod tidy
	PINS_DIR=$work/$line.pins
	mkdir -p "$PINS_DIR"
	snapshot

	# The operator now uses the runtime, and its tests testenv.
	cat >main.go <<'EOF'
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/patcher"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	_ = patcher.ForManager(mgr, patcher.WithFieldOwner("adopt"))
}
EOF
	cat >main_test.go <<'EOF'
package main

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv"
)

func TestServer(t *testing.T) { _ = testenv.Start }
EOF
	for g in "${gets[@]}"; do
		echo "\$ $g"
		bash -euo pipefail -c "$g"
	done
	go mod tidy
	check_pins "$line: the README's go get lines and go mod tidy"
	# check_pins wrote now.req; reading the file, not `requirements | grep -q`,
	# which under pipefail fails when grep's early exit SIGPIPEs sort.
	grep -q '^github.com/statuspatch/statuspatch ' "$PINS_DIR/now.req" ||
		{ echo "adopt-lines: $line: the runtime is not required after the README's go get" >&2; exit 1; }
	go build ./...
	echo "=== adopt-lines: $line: builds ($((SECONDS - start))s)"
	cd "$root"
}

mapfile -t rows <<<"$rows"
for row in "${rows[@]}"; do
	read -r line cr k8s toolchain goline _ roles <<<"$row"
	[[ $roles != below ]] || { echo "adopt-lines: line $line is below the floor: not supported" >&2; exit 1; }
	adopt "$line" "$cr" "$k8s" "$goline" "$toolchain"
done
