#!/usr/bin/env bash
# Adopts statuspatch in a real kubebuilder operator as a user would, by
# docs/kubebuilder.md, and runs the operator's own suites before and after:
#
#   1. the operator: kubebuilder's testdata/project-v4-with-plugins at
#      kubebuilder v4.13.1 (commit 1c484f91df846970e72b0344cca86c5c98845ea8;
#      controller-runtime v0.23.3, k8s.io v0.35.0, go 1.25.3): Memcached and
#      Busybox controllers (kubebuilder's deploy-image plugin), six
#      handwritten r.Status().Update calls each, a Wordpress kind in two
#      versions (v1 storage, v2 converted), webhooks, Ginkgo suites on
#      envtest. Its source comes from a kubebuilder git checkout (KUBEBUILDER_GIT,
#      a bare or normal clone holding the tag): the module is not on the Go
#      module proxy (a nested module without tags: 403 for its pseudo-version),
#      and nothing but the proxy is reachable here. The testdata has no
#      go.sum: go mod tidy writes it (from the proxy).
#   2. before: its unit and envtest suites (go test of every package but
#      test/e2e, as its make test does) on envtest binaries testenv-assets
#      built from the module proxy (make test's setup-envtest downloads from
#      GitHub, which is unreachable here).
#   3. statuspatch from this checkout: the tools built here (make build, and
#      testenv-assets), put where the Makefile's go-install-tool finds them
#      (bin/<tool>-v0.1.0), and the two modules required through replace
#      directives to this checkout (the module proxy route of
#      hack/install-test.sh compiles every Kubernetes dependency once more in
#      a module cache of its own: too slow for a 2-core machine shared by
#      five; say so in the report). Then, by docs/kubebuilder.md:
#      statuspatch-gen init, make generate, statuspatch-lint -fix ./..., go mod tidy.
#   4. after: no handwritten status write left (statuspatch-lint exits 0),
#      the operator's own make test (init turned setup-envtest into
#      testenv-assets; the operator's test files unchanged, init's starter
#      test beside them, its two TODOs filled as the operator's own test
#      fills them: the one hand edit), go vet.
#
#   KUBEBUILDER_GIT=/path/to/kubebuilder.git hack/migrate-operator.sh [WORKDIR]
#
# Not in CI: minutes of compiling on a cold build cache (the report gives
# the measured times). Exits non-zero at the first step that fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
git_dir=${KUBEBUILDER_GIT:?set KUBEBUILDER_GIT to a kubebuilder git checkout holding tag v4.13.1}
commit=1c484f91df846970e72b0344cca86c5c98845ea8
work=${1:-$(mktemp -d)}
op=$work/project-v4-with-plugins
version=v0.1.0
die() { echo "migrate-operator: $*" >&2; exit 1; }
start=$(date +%s)
step() { echo; echo "=== migrate-operator: $* ($(( $(date +%s) - start ))s)"; }
export GOTOOLCHAIN=local
unset GOWORK

step "operator source: kubebuilder $commit testdata/project-v4-with-plugins into $op"
[[ $(git --git-dir="$git_dir" rev-parse 'v4.13.1^{commit}' 2>/dev/null) == "$commit" ]] ||
	die "$git_dir has no tag v4.13.1 at $commit"
rm -rf "$op" && mkdir -p "$work"
git --git-dir="$git_dir" archive "$commit" testdata/project-v4-with-plugins | tar -x -C "$work" --strip-components=1
cd "$op"
git init -q && printf 'bin/\ncover.out\n' >.git/info/exclude
commit_all() { git add -A && git -c user.email=trial@statuspatch -c user.name=trial commit -qm "$1"; }
go mod tidy
commit_all "kubebuilder v4.13.1 testdata/project-v4-with-plugins, go mod tidy"

step "testenv-assets and the statuspatch tools from $root"
(cd "$root" && make -s build)
(cd "$root/testenv" && go build -o "$root/bin/testenv-assets" ./cmd/testenv-assets)
mkdir -p bin
for t in statuspatch-gen statuspatch-lint testenv-assets; do
	cp "$root/bin/$t" "bin/$t-$version"
	ln -sf "$(realpath "bin/$t-$version")" "bin/$t"
done
assets=$(bin/testenv-assets use --etcd -p path 1.35.x)

step "before: the operator's suites on envtest ($assets)"
KUBEBUILDER_ASSETS=$assets go test -count=1 $(go list ./... | grep -v /e2e)

step "statuspatch-gen init"
printf '\n// statuspatch trial: this checkout\nreplace github.com/statuspatch/statuspatch => %s\n\nreplace github.com/statuspatch/statuspatch/testenv => %s/testenv\n' "$root" "$root" >>go.mod
# init's last step, go get of the patcher package at $version, asks the
# proxy for a module github.com/statuspatch/statuspatch/patcher, which this
# sandbox's proxy answers 403 (not 404): go get the module instead.
bin/statuspatch-gen init -version "$version" || go get "github.com/statuspatch/statuspatch@$version"
commit_all "statuspatch-gen init"

step "make generate"
make generate
commit_all "make generate"

step "statuspatch-lint -fix ./..."
rc=0
bin/statuspatch-lint -fix ./... || rc=$?
[[ $rc == 0 ]] || die "statuspatch-lint -fix exited $rc: handwritten status writes are left (above)"
go mod tidy
commit_all "statuspatch-lint -fix ./..., go mod tidy"
git show --stat HEAD
bin/statuspatch-lint ./... || die "statuspatch-lint reports handwritten status writes after -fix"

step "init's starter test: its two TODOs, as the operator's own memcached_controller_test.go fills them"
# The reconciler needs MEMCACHED_IMAGE and a container port (its own test
# sets both); init cannot know them. The only edit by hand.
sed -i 's|^\t// TODO(user): set the spec fields your reconciler needs.$|&\n\tobj.Spec.ContainerPort = 11211\n\tt.Setenv("MEMCACHED_IMAGE", "example.com/image:test")|' internal/controller/memcached_testenv_test.go
grep -q 'MEMCACHED_IMAGE' internal/controller/memcached_testenv_test.go || die "the starter test has no TODO line to fill"
commit_all "starter test TODOs"

step "after: go vet, the operator's own make test"
go vet ./...
make test
step "done"
