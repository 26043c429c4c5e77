#!/usr/bin/env bash
# The compatibility matrix (docs/compatibility.md): what users import, built
# and tested at every controller-runtime / k8s.io / Go line statuspatch
# supports, each line with its own Go toolchain (from the module proxy).
#
#   hack/compat.sh update        regenerate hack/compat/<line>/*.mod from
#                                hack/lines.txt
#   hack/compat.sh test [LINE..] test every line, or the named ones (a line,
#                                or a selector of hack/lines.sh: older,
#                                install ...), and "below": a module that pins
#                                a line below the floor gets an error that
#                                names the floor
#   hack/compat.sh build [LINE..] compile what test compiles at every line (or
#                                the named ones) into the build cache, running
#                                no test: go vet, and the export data of every
#                                package and test package (go list -export);
#                                no API server binary needed (.ci/run runs it
#                                while make test-assets builds them)
#
# At each line: the runtime module's tests (patcher, patchertest) and vet;
# testenv's tests, the patcher's integration tests on the real API server
# among them; the golden module of statuspatch-gen (generated patchers)
# built, vetted and tested. Each module is tested through an alternate
# go.mod (go test -modfile) that requires that line's versions: the
# published go.mod files stay at the floor, the first line. Which lines a
# command runs at, and what each alternate go.mod requires, are hack/lines'
# (hack/lines.sh compat, hack/lines.sh pins; unit-tested in make test); this
# script runs the go commands.
set -euo pipefail
cd "$(dirname "$0")/.."

# The lines are hack/lines.txt's (hack/lines.sh reads it): each line's
# controller-runtime, k8s.io and Go toolchain, and the line below the floor,
# whose controller-runtime is pinned with a replace directive, as operators
# pin it. (k8s.io pinned below the floor fails earlier, inside
# apimachinery, against the kube-openapi the floor needs:
# docs/compatibility.md.)
GOLDENS=cmd/statuspatch-gen/generator/testdata
# The modules tested at each line: the name of their alternate go.mod in
# hack/compat/<line>/ (hack/lines.sh pins knows what each requires), and
# their folder.
declare -A MODULES=([root]=. [testenv]=testenv [goldens]=$GOLDENS)

# alternate LINE CR K8S MODULE: hack/compat/LINE/MODULE.mod becomes the
# module's go.mod with the line's versions (hack/lines.sh pins; and a
# replace of the runtime by this checkout), tidied.
alternate() {
	local line=$1 cr=$2 k8s=$3 module=$4 dir=${MODULES[$4]} modfile=hack/compat/$1/$4.mod pins reqs
	pins=$(hack/lines.sh pins "$line" "$module")
	mapfile -t reqs <<<"$pins"
	cp "$dir/go.mod" "$modfile"
	cp "$dir/go.sum" "${modfile%.mod}.sum"
	(
		cd "$dir"
		local rel
		rel=$(realpath --relative-to=. "$OLDPWD/$modfile")
		GOWORK=off go mod edit -modfile="$rel" "${reqs[@]}"
		if [[ $module == testenv ]]; then
			GOWORK=off go mod edit -modfile="$rel" -replace=github.com/statuspatch/statuspatch@v0.1.0=../
		fi
		GOWORK=off go mod tidy -modfile="$rel"
		if [[ $module == testenv ]]; then
			at_workspace_line "$rel" "$cr" "$k8s"
		fi
	)
}

# workspace_versions (hack/workspace-versions.sh): at the line the workspace
# builds (examples/go.mod pins it), every module of testenv's graph takes the
# version the workspace builds it at, so make test's compile of testenv's
# dependencies is this line's compile too. Other lines are left as tidy made
# them.
# shellcheck source=hack/workspace-versions.sh
source hack/workspace-versions.sh
at_workspace_line() {
	local rel=$1 cr=$2 k8s=$3
	is_workspace_line "$cr" "$k8s" || return 0
	workspace_versions "$rel"
}

# update_line LINE CR K8S TOOLCHAIN: the line's alternate go.mod files.
update_line() {
	local line=$1 cr=$2 k8s=$3 m
	mkdir -p "hack/compat/$line"
	echo "hack/compat/$line: controller-runtime $cr, k8s.io $k8s" >&2
	for m in root testenv goldens; do
		alternate "$line" "$cr" "$k8s" "$m"
	done
}

# update_below LINE CR TOOLCHAIN: the runtime's go.mod with controller-runtime
# CR by replace.
update_below() {
	local cr=$2
	mkdir -p hack/compat/below
	echo "hack/compat/below: controller-runtime $cr by replace" >&2
	cp go.mod hack/compat/below/root.mod
	cp go.sum hack/compat/below/root.sum
	GOWORK=off go mod edit -modfile=hack/compat/below/root.mod -replace="sigs.k8s.io/controller-runtime=sigs.k8s.io/controller-runtime@$cr"
	GOWORK=off go mod tidy -e -modfile=hack/compat/below/root.mod
}

# test_below LINE CR TOOLCHAIN: the runtime must not build below the floor,
# and the first error must name it (patcher/requires_controller_runtime_v0_22.go).
test_below() {
	local cr=$2 toolchain=$3 out
	echo "=== below the floor: controller-runtime $cr pinned by replace, $toolchain"
	if out=$(run . "$toolchain" hack/compat/below/root.mod build ./patcher/ 2>&1); then
		echo "$out"
		echo "compat: the runtime built with controller-runtime $cr; the floor check is gone" >&2
		return 1
	fi
	echo "$out"
	if ! grep -q 'requires_controller_runtime_v0_22.go:.*requiresControllerRuntimeV0_22AndK8sV0_34OrNewer\|requires_controller_runtime_v0_22.go:.*undefined: client.ApplyOption' <<<"$(grep -m1 '\.go:' <<<"$out")"; then
		echo "compat: below the floor, the first error does not name the floor" >&2
		return 1
	fi
	echo "=== below the floor: refused, naming the floor"
}

# run DIR TOOLCHAIN MODFILE GOARGS...: go GOARGS in DIR with the line's Go
# and its alternate go.mod.
run() {
	local dir=$1 toolchain=$2 modfile=$3
	shift 3
	local rel
	rel=$(realpath --relative-to="$dir" "$modfile")
	echo "+ (cd $dir && GOTOOLCHAIN=$toolchain go $1 -modfile=$rel ${*:2})"
	(cd "$dir" && GOWORK=off GOTOOLCHAIN=$toolchain go "$1" -modfile="$rel" "${@:2}")
}

# go test's result cache applies as in make test: a line's tests run again
# when anything they build from, or a file or variable they read, changed.
test_line() {
	local line=$1 cr=$2 k8s=$3 toolchain=$4 dir=hack/compat/$1 start=$SECONDS
	echo "=== $line: controller-runtime $cr, k8s.io $k8s, $toolchain"
	run . "$toolchain" "$dir/root.mod" vet ./...
	run . "$toolchain" "$dir/root.mod" test -vet=off ./patcher/... ./patchertest/...
	run testenv "$toolchain" "$dir/testenv.mod" test -vet=off ./...
	run "$GOLDENS" "$toolchain" "$dir/goldens.mod" vet ./...
	run "$GOLDENS" "$toolchain" "$dir/goldens.mod" test -vet=off ./...
	echo "=== $line passed in $((SECONDS - start))s"
}

# export_data DIR TOOLCHAIN MODFILE PKGS...: compile PKGS, their tests and
# their dependencies (go list -export), printing only packages in error.
export_data() {
	run "$1" "$2" "$3" list -export -deps -test -f '{{if .Error}}{{.ImportPath}}: {{.Error}}{{end}}' "${@:4}" | { grep . || true; }
}

# build_line: test_line's compile without its tests. go vet is test_line's
# own (its result is then cached); go list -export compiles each package and
# test package with the same actions go test's build takes, so test_line
# finds them in the build cache and only links and runs.
build_line() {
	local line=$1 toolchain=$4 dir=hack/compat/$1 start=$SECONDS
	echo "=== $line: compile ($toolchain)"
	run . "$toolchain" "$dir/root.mod" vet ./...
	run "$GOLDENS" "$toolchain" "$dir/goldens.mod" vet ./...
	export_data . "$toolchain" "$dir/root.mod" ./patcher/... ./patchertest/...
	export_data testenv "$toolchain" "$dir/testenv.mod" ./...
	export_data "$GOLDENS" "$toolchain" "$dir/goldens.mod" ./...
	echo "=== $line compiled in $((SECONDS - start))s"
}

# compat CMD [SELECTOR...]: the steps hack/lines.sh compat chooses (which
# lines, in which order, and the one below the floor: hack/lines/compat.go),
# each run as CMD_line LINE CR K8S TOOLCHAIN or CMD_below LINE CR TOOLCHAIN.
compat() {
	local cmd=$1 plan kind rest args
	plan=$(hack/lines.sh compat "$@") || exit 2
	while read -r kind rest; do
		read -ra args <<<"$rest"
		"${cmd}_$kind" "${args[@]}" </dev/null
	done <<<"$plan"
}

cmd=${1:-test}
shift || true
case $cmd in
update | test | build)
	compat "$cmd" "$@"
	;;
*)
	echo "usage: hack/compat.sh update | test [LINE...] | build [LINE...] (a LINE: hack/lines.txt's, or a selector of hack/lines.sh)" >&2
	exit 2
	;;
esac
