#!/usr/bin/env bash
# Adopts statuspatch in a real kubebuilder operator as a user would, by
# docs/kubebuilder.md, and runs the operator's own suites before and after.
# One command per operator, each at a pinned commit:
#
#   SPARK_GIT=/path/to/spark-operator.git hack/migrate-operator.sh spark-operator [WORKDIR]
#   KUBEBUILDER_GIT=/path/to/kubebuilder.git hack/migrate-operator.sh project-v4-with-plugins [WORKDIR]
#   ACCURATE_GIT=/path/to/accurate.git hack/migrate-operator.sh accurate [WORKDIR]
#   LWS_GIT=/path/to/lws.git hack/migrate-operator.sh lws [WORKDIR]
#   TEMPLATE_OPERATOR_GIT=/path/to/template-operator.git hack/migrate-operator.sh template-operator [WORKDIR]
#   HYPERVISOR_GIT=/path/to/openstack-hypervisor-operator.git hack/migrate-operator.sh openstack-hypervisor-operator [WORKDIR]
#   KARPENTER_GIT=/path/to/karpenter.git hack/migrate-operator.sh karpenter [WORKDIR]
#   TRUST_MANAGER_GIT=/path/to/trust-manager.git hack/migrate-operator.sh trust-manager [WORKDIR]
#   JOBSET_GIT=/path/to/jobset.git hack/migrate-operator.sh jobset [WORKDIR]
#   KUEUE_GIT=/path/to/kueue.git hack/migrate-operator.sh kueue [WORKDIR]
#   KRO_GIT=/path/to/kro.git hack/migrate-operator.sh kro [WORKDIR]
#
# MIGRATE_FIX_FLAGS adds flags to statuspatch-lint -fix
# (-nonstatus-unsent=false: a Status().Update or Status().Patch whose
# object changes outside its status before it stays, where by default it
# moves onto a patcher made with patcher.WithNonStatusChangesUnsent()).
#
# MIGRATE_BEFORE=skip leaves out step 2 (the suites before), for a re-run
# whose before is already on record; MIGRATE_SUITES=skip leaves out the
# suites before and after (and the Makefile's step): the linter's figures
# alone, with go vet of the result.
#
# The operators (docs/lint.md, "Tried on real operators", has the figures
# of the last runs of all but project-v4-with-plugins, whose are in
# docs/kubebuilder.md, "Migrating a real operator"):
#
#   spark-operator: kubeflow/spark-operator at commit
#     38082f3318e9d33f3e4a940c7cf165df6e40b422 (master of 2026-08-21; no
#     tag of it is on a supported controller-runtime line: v2.5.2 is on
#     v0.20.4): controller-runtime v0.23.3, k8s.io v0.35.4, go 1.25; three
#     controllers (SparkApplication, ScheduledSparkApplication,
#     SparkConnect) with four handwritten r.client.Status().Update calls,
#     each in a helper that only writes the object it is given, and one in
#     an event filter; Ginkgo suites on envtest in five packages, unit tests
#     beside them. The module at that commit is not on the Go module proxy
#     (403), so the source comes from a git clone (SPARK_GIT).
#   project-v4-with-plugins: kubebuilder's own sample at v4.13.1 (commit
#     1c484f91df846970e72b0344cca86c5c98845ea8; controller-runtime v0.23.3,
#     k8s.io v0.35.0, go 1.25.3): Memcached and Busybox controllers with six
#     handwritten r.Status().Update calls each, a kind in two versions,
#     webhooks. From a kubebuilder clone (KUBEBUILDER_GIT): a nested module
#     without tags, which the proxy answers 403 for.
#   accurate: cybozu-go/accurate at commit
#     ca1815bb816ff30f4d5ed12d959749890d4bd999 (main of 2026-05-12;
#     controller-runtime v0.23.1, k8s.io v0.35.3, go 1.25.9): one
#     server-side apply status write, r.Status().Apply of an apply
#     configuration (SubNamespace) in a helper; Ginkgo suite on envtest in
#     ./controllers. Its Makefile installs its tools with aqua and runs
#     controller-gen from PATH, so no init: the patchers by statuspatch-gen
#     itself (docs/generator.md), the module required by hand.
#   lws: kubernetes-sigs/lws at commit
#     060ab4da17eea1f0865fcbd3236bb1075e2cea32 (main of 2026-08-21;
#     controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0): Status().Update
#     of LeaderWorkerSet and DisaggregatedSet in helpers, a MergeFrom
#     Status().Patch of DisaggregatedSetRoleScaler in a helper type of
#     another file; the objects are handed to functions of other packages.
#     Its integration suite on envtest (test/integration/controllers). No
#     init either (its make generate runs code-generator and genref); its
#     site/ and docs/ are left out of the archive (large files the mirror
#     may lack).
#   template-operator: kyma-project/template-operator at commit
#     cf3792218b03d3c4d1415805d4eb74af0a5a1eec (main of 2026-07-24; the
#     newest supported controller-runtime line): one server-side apply
#     status write, r.SubResource("status").Apply of an apply configuration
#     it converts from the Sample (a client.Object) in a helper; its API
#     types are a nested module (api/, required through a replace), so the
#     patchers by statuspatch-gen from the package's import path. Ginkgo
#     suite on envtest in ./controllers.
#   openstack-hypervisor-operator: cobaltcore-dev/openstack-hypervisor-operator
#     at commit 8ee7e08c34951094332f4a3034fdaa35c89cf853 (main of
#     2026-08-20; the same line): two MergeFrom Status().Patch writes, both
#     with MergeFromWithOptimisticLock in a RetryOnConflict loop around a
#     Get (Eviction in its controller, Hypervisor in a helper of
#     internal/utils that a dozen controllers call with a callback). Ginkgo
#     suite on envtest in ./internal/controller (internal/utils has none).
#   karpenter: kubernetes-sigs/karpenter at commit
#     2266468104f36373ed002241afaee2d3bbc26078 (main of 2026-08-20;
#     controller-runtime v0.24.1, k8s.io v0.36.1, go 1.26.6): not a
#     kubebuilder layout (pkg/apis, pkg/controllers, no PROJECT); its
#     controllers are operatorpkg's generic reconcilers
#     (reconcile.AsReconciler, singleton); 16 MergeFrom Status().Patch
#     writes of NodeClaim, NodePool, NodeOverlay and CapacityBuffer, most
#     with MergeFromWithOptimisticLock, some on List items, some in
#     closures. Ginkgo suites on envtest beside each controller.
#   trust-manager: cert-manager/trust-manager at commit
#     fc1b53ddc28eb24d5f7d4c6374992785f1977909 (main of 2026-08-22;
#     controller-runtime v0.24.1, k8s.io v0.36.4, go 1.26.0): not a
#     kubebuilder layout (pkg/apis, pkg/bundle, cmd/); server-side apply of
#     the Bundle's status through its own ssa_client (a Status().Patch of an
#     encoded apply configuration, client.Apply's patch type).
#   jobset: kubernetes-sigs/jobset at commit
#     08dfbdfd682714a9ab929633eca8dc95315187e7 (main of 2026-08-18;
#     controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0): kubebuilder
#     layout (PROJECT, api/jobset/v1alpha2, pkg/controllers); one
#     Status().Update of the JobSet in a helper its Reconcile calls with
#     options it filled on the way; the Job and Pod status writes are of
#     built-in kinds. (grafana/grafana-operator, an interface status helper
#     over 12 kinds and a GenericReconciler[T, PT], was tried at 60d3ebd2:
#     its controllers import github.com/grafana/grafana/apps/folder, which
#     the module proxy refuses, 403.)
#   kueue: kubernetes-sigs/kueue at commit
#     ff69552e79ad21652c36caa97038382e55625cf7 (main of 2026-08-22;
#     controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0): kubebuilder
#     v3-style layout (apis/kueue/v1beta1 and v1beta2, the storage version,
#     pkg/controller/{core,admissionchecks,jobs}); 13 status writes of its
#     own kinds and pods': Status().Update of ClusterQueue, LocalQueue,
#     Cohort, AdmissionCheck, MultiKueueCluster and Workload (some on a
#     remote cluster's client), a server-side apply of the Workload's status
#     through a generic helper (pkg/workload/patching), a Status().Patch in a
#     helper over client.Object (pkg/util/client), an apply of a Pod's
#     status. Its vendor/ is left out (the replace lines would make it
#     inconsistent), with site/, docs/, keps/ and charts/ (test/, the
#     e2e and integration suites are kept: test/util is a package of the
#     module that cmd/experimental's tests import). The module proxy
#     answers 403 for two of its requirements (kuberay's ray-operator
#     v1.7.0, lws v0.10.0): each is replaced by its vendored packages
#     (vendored below).
#   kro: kubernetes-sigs/kro at commit
#     0302e659ede72a24c62f9faa666b0045ebf39731 (main of 2026-08-19;
#     controller-runtime v0.24.1, k8s.io v0.36.3, go 1.26.0): two API groups
#     (api/v1alpha1, api/internal.kro.run/v1alpha1), no PROJECT; two
#     MergeFrom Status().Patch writes (ResourceGraphDefinition,
#     GraphRevision), each in a retry.RetryOnConflict around a Get of the
#     object, copying the status decided on the reconciled object onto the
#     fresh copy; its instances are written through a dynamic client.
#   (all but spark-operator and project-v4-with-plugins: e.g. the bare git
#   directories the fetch of github:<owner>/<name> gives.)
#
# The steps, for each:
#   1. the source at the commit, go mod tidy (the sample has no go.sum);
#   2. before: the operator's unit and envtest suites (its test target's go
#      test line) on envtest binaries testenv-assets built from the module
#      proxy (setup-envtest downloads from GitHub, unreachable here);
#   3. statuspatch from this checkout: the tools built here, put where the
#      Makefile's go-install-tool finds them, the two modules required
#      through replace directives to this checkout (the proxy route of
#      hack/install-test.sh compiles every Kubernetes dependency once more
#      in a module cache of its own: too slow for a shared 2-core machine);
#      then statuspatch-gen init, the patchers (make generate, or make
#      generate-patchers where the operator's generate needs more than Go),
#      statuspatch-lint -fix ./..., go mod tidy;
#   4. after: the writes left (a count, and statuspatch-lint's findings,
#      each with why -fix did not move it), go vet, the suites again with
#      the operator's test files unchanged (and the sample's make test).
#
# Not in CI: minutes of compiling on a cold build cache. Exits non-zero at
# the first step that fails; writes -fix leaves are reported, not a failure.
set -euo pipefail
# STATUSPATCH_ROOT: the statuspatch checkout whose tools and modules to
# use (default: the one holding this script)
root=${STATUSPATCH_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
op=${1:?usage: hack/migrate-operator.sh spark-operator|project-v4-with-plugins|accurate|lws|template-operator|openstack-hypervisor-operator|karpenter|trust-manager|jobset|kueue|kro [WORKDIR]}
skip_suites=${MIGRATE_SUITES:-}
no_init=
exclude=()
# vendored: modules the proxy refuses (403), each replaced by the packages
# of it in the operator's vendor/ at the commit, a module of their own
vendored=()
work=${2:-$(mktemp -d)}
version=v0.1.0
die() { echo "migrate-operator: $*" >&2; exit 1; }
start=$(date +%s)
step() { echo; echo "=== migrate-operator $op: $* ($(( $(date +%s) - start ))s)"; }
export GOTOOLCHAIN=local
unset GOWORK

case $op in
spark-operator)
	git_dir=${SPARK_GIT:?set SPARK_GIT to a kubeflow/spark-operator git clone holding commit 38082f33}
	commit=38082f3318e9d33f3e4a940c7cf165df6e40b422
	tree=
	# its unit-test target's go test line (test/e2e is a module of its own)
	suites() { go test -count=1 -v $(go list ./... | grep -v -e /drift); }
	# No init: since init puts every file back when a step fails, its last
	# step (go get of github.com/statuspatch/statuspatch/patcher, which
	# this sandbox's proxy answers 403) leaves the Makefile as it was. The
	# patchers by statuspatch-gen itself, as for the operators below.
	no_init=1
	generate() { bin/statuspatch-gen paths=./api/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
project-v4-with-plugins)
	git_dir=${KUBEBUILDER_GIT:?set KUBEBUILDER_GIT to a kubebuilder git checkout holding tag v4.13.1}
	commit=1c484f91df846970e72b0344cca86c5c98845ea8
	tree=testdata/project-v4-with-plugins
	suites() { go test -count=1 -v $(go list ./... | grep -v /e2e); }
	generate() { make generate; }
	# init's starter test needs two values its reconciler requires (an
	# image environment variable, a container port), filled as the
	# operator's own memcached_controller_test.go fills them: the one hand
	# edit, before the suites run again (they include the starter test);
	# then the operator's own make test.
	hand_edits() {
		sed -i 's|^\t// TODO(user): set the spec fields your reconciler needs.$|&\n\tobj.Spec.ContainerPort = 11211\n\tt.Setenv("MEMCACHED_IMAGE", "example.com/image:test")|' internal/controller/memcached_testenv_test.go
		grep -q 'MEMCACHED_IMAGE' internal/controller/memcached_testenv_test.go || die "the starter test has no TODO line to fill"
		commit_all "starter test TODOs"
	}
	after_make() { make test; }
	;;
accurate)
	git_dir=${ACCURATE_GIT:?set ACCURATE_GIT to a cybozu-go/accurate git clone holding commit ca1815bb}
	commit=ca1815bb816ff30f4d5ed12d959749890d4bd999
	tree=
	no_init=1
	# its envtest target's controller suite (without -race, to spare the build)
	suites() { go test -count=1 -v ./controllers/ -ginkgo.v; }
	generate() { bin/statuspatch-gen paths=./api/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
lws)
	git_dir=${LWS_GIT:?set LWS_GIT to a kubernetes-sigs/lws git clone holding commit 060ab4da}
	commit=060ab4da17eea1f0865fcbd3236bb1075e2cea32
	tree=
	exclude=(site docs)
	no_init=1
	# its test-integration target's controller suite
	suites() { go test -count=1 -v ./test/integration/controllers/ -ginkgo.v; }
	generate() { bin/statuspatch-gen paths=./api/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
template-operator)
	git_dir=${TEMPLATE_OPERATOR_GIT:?set TEMPLATE_OPERATOR_GIT to a kyma-project/template-operator git clone holding commit cf379221}
	commit=cf3792218b03d3c4d1415805d4eb74af0a5a1eec
	tree=
	no_init=1
	# its test target's go test line, the controllers' package
	suites() { go test -count=1 -v ./controllers/ -ginkgo.v; }
	generate() { bin/statuspatch-gen paths=github.com/kyma-project/template-operator/api/v1alpha1 output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
openstack-hypervisor-operator)
	git_dir=${HYPERVISOR_GIT:?set HYPERVISOR_GIT to a cobaltcore-dev/openstack-hypervisor-operator git clone holding commit 8ee7e08c}
	commit=8ee7e08c34951094332f4a3034fdaa35c89cf853
	tree=
	exclude=(docs)
	no_init=1
	# its check target runs ginkgo over every package: the controllers'
	suites() { go test -count=1 -v ./internal/controller/ -ginkgo.v; }
	generate() { bin/statuspatch-gen paths=./api/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
karpenter)
	git_dir=${KARPENTER_GIT:?set KARPENTER_GIT to a kubernetes-sigs/karpenter git clone holding commit 22664681}
	commit=2266468104f36373ed002241afaee2d3bbc26078
	tree=
	# kwok/ and test/ (the kwok cloud provider and the e2e suites that use
	# it; nothing in pkg/ imports them): a blob of kwok/examples the mirror
	# may lack
	exclude=(designs kwok dra-kwok-driver test)
	no_init=1
	suites() { go test -count=1 -v ./pkg/controllers/nodepool/... ./pkg/controllers/nodeclaim/... -ginkgo.v; }
	generate() { bin/statuspatch-gen paths=./pkg/apis/... output:dir=./pkg/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
trust-manager)
	git_dir=${TRUST_MANAGER_GIT:?set TRUST_MANAGER_GIT to a cert-manager/trust-manager git clone holding commit fc1b53dd}
	commit=fc1b53ddc28eb24d5f7d4c6374992785f1977909
	tree=
	exclude=(docs design)
	no_init=1
	suites() { go test -count=1 -v ./pkg/bundle/...; }
	generate() { bin/statuspatch-gen paths=./pkg/apis/... output:dir=./pkg/patchers; }
	hand_edits() { :; }
	after_make() { :; }
	;;
jobset)
	git_dir=${JOBSET_GIT:?set JOBSET_GIT to a kubernetes-sigs/jobset git clone holding commit 08dfbdfd}
	commit=08dfbdfd682714a9ab929633eca8dc95315187e7
	tree=
	exclude=(site docs keps charts)
	no_init=1
	suites() { go test -count=1 -v ./pkg/controllers/...; }
	generate() { bin/statuspatch-gen paths=./api/jobset/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
kueue)
	git_dir=${KUEUE_GIT:?set KUEUE_GIT to a kubernetes-sigs/kueue git clone holding commit ff69552e}
	commit=ff69552e79ad21652c36caa97038382e55625cf7
	tree=
	exclude=(vendor site docs keps charts)
	vendored=(github.com/ray-project/kuberay/ray-operator sigs.k8s.io/lws)
	no_init=1
	suites() { go test -count=1 -v ./pkg/controller/core/... ./pkg/controller/admissionchecks/...; }
	generate() { bin/statuspatch-gen paths=./apis/kueue/... output:dir=./pkg/patchers headerFile=hack/boilerplate.go.txt; }
	hand_edits() { :; }
	after_make() { :; }
	;;
kro)
	git_dir=${KRO_GIT:?set KRO_GIT to a kubernetes-sigs/kro git clone holding commit 0302e659}
	commit=0302e659ede72a24c62f9faa666b0045ebf39731
	tree=
	exclude=(docs website examples helm)
	no_init=1
	suites() { go test -count=1 -v ./pkg/controller/...; }
	generate() { bin/statuspatch-gen paths=./api/... output:dir=./pkg/patchers; }
	hand_edits() { :; }
	after_make() { :; }
	;;
*) die "unknown operator $op: spark-operator, project-v4-with-plugins, accurate, lws, template-operator, openstack-hypervisor-operator, karpenter, trust-manager, jobset, kueue or kro" ;;
esac
src=$work/$op
# run_suites before|after: the operator's suites, verbose into
# $work/$op-suites-<when>.log, and a summary line with the counts.
run_suites() {
	local log=$work/$op-suites-$1.log rc=0 t0=$SECONDS
	suites >"$log" 2>&1 || rc=$?
	grep -E '^(ok|FAIL|---) ' "$log" | grep -v -e '--- PASS' || true
	# Ginkgo colours its summary: the escapes out first
	specs() { sed -E 's/\x1b\[[0-9;]*m//g' "$log" | sed -nE "s/.* ([0-9]+) $1 \| .*/\1/p" | awk '{n+=$1} END {print n+0}'; }
	echo "suites $1 (exit status $rc, $((SECONDS - t0)) s; the log: $log): $(grep -c '^ok ' "$log") packages ok, $(grep -c '^FAIL' "$log") FAIL lines; Go tests and subtests: $(grep -c -e '--- PASS' "$log") passed, $(grep -c -e '--- FAIL' "$log") failed; Ginkgo specs: $(specs Passed) passed, $(specs Failed) failed"
	return $rc
}

step "source: $git_dir at $commit${tree:+ ($tree)} into $src"
git --git-dir="$git_dir" cat-file -e "$commit^{commit}" 2>/dev/null || die "$git_dir has no commit $commit"
rm -rf "$src" && mkdir -p "$src"
if [[ -n $tree ]]; then
	git --git-dir="$git_dir" archive "$commit" "$tree" | tar -x -C "$src" --strip-components=$(( $(tr -cd / <<<"$tree" | wc -c) + 1 ))
else
	# the top-level entries but the excluded ones: with ':!dir' pathspecs,
	# git archive (2.39) still reads the excluded blobs, which a mirror
	# may lack ("invalid object")
	keep=()
	while IFS= read -r e; do
		[[ " ${exclude[*]-} " == *" $e "* ]] || keep+=("$e")
	done < <(git --git-dir="$git_dir" ls-tree --name-only "$commit")
	git --git-dir="$git_dir" archive "$commit" -- "${keep[@]}" | tar -x -C "$src"
fi
cd "$src"
git init -q && printf 'bin/\ncover.out\ncover.html\n' >.git/info/exclude
for m in ${vendored[@]+"${vendored[@]}"}; do
	v=$work/$op-vendored/$m
	rm -rf "$v" && mkdir -p "$v"
	git --git-dir="$git_dir" archive "$commit" "vendor/$m" | tar -x -C "$v" --strip-components=$(( $(tr -cd / <<<"$m" | wc -c) + 2 ))
	printf 'module %s\n\ngo %s\n' "$m" "$(go mod edit -json | sed -n 's/^\t"Go": "\(.*\)",$/\1/p')" >"$v/go.mod"
	go mod edit -replace "$m=$v"
	echo "$m: the proxy refuses it, replaced by its vendored packages ($v)"
done
commit_all() { git add -A && git -c user.email=trial@statuspatch -c user.name=trial commit -qm "$1"; }
go mod tidy
commit_all "$op at $commit, go mod tidy"
writes() { git grep -c -E '(Status\(\)|SubResource\("status"\))\.(Update|Patch|Apply)\(' -- '*.go' ':!*_test.go' ':!test/' ':!internal/patchers/' ':!pkg/patchers/' | awk -F: '{n+=$2} END {print n+0}'; }
echo "handwritten status writes (Status().Update/Patch/Apply outside tests, by grep): $(writes)"

step "testenv-assets and the statuspatch tools from $root"
(cd "$root" && make -s build)
tools=(statuspatch-gen statuspatch-lint)
if [[ $skip_suites != skip ]]; then
	(cd "$root/testenv" && go build -o "$root/bin/testenv-assets" ./cmd/testenv-assets)
	tools+=(testenv-assets)
fi
mkdir -p bin
for t in "${tools[@]}"; do
	cp "$root/bin/$t" "bin/$t-$version"
	ln -sf "$(realpath "bin/$t-$version")" "bin/$t"
done
if [[ $skip_suites != skip ]]; then
	# The envtest release make test-assets builds (hack/lines.txt's
	# install line), inside both operators' client-go skew.
	assets=$(bin/testenv-assets use --etcd -p path "$("$root/hack/lines.sh" assets)")
	export KUBEBUILDER_ASSETS=$assets
fi

if [[ $skip_suites == skip ]]; then
	step "before: the suites skipped (MIGRATE_SUITES=skip)"
elif [[ ${MIGRATE_BEFORE:-} == skip ]]; then
	step "before: skipped (MIGRATE_BEFORE=skip)"
else
	step "before: the operator's suites on envtest ($assets)"
	run_suites before
fi

printf '\n// statuspatch trial: this checkout\nreplace github.com/statuspatch/statuspatch => %s\n\nreplace github.com/statuspatch/statuspatch/testenv => %s/testenv\n' "$root" "$root" >>go.mod
if [[ -n $no_init ]]; then
	step "the statuspatch module (no init: see the operator's notes above)"
	go get "github.com/statuspatch/statuspatch@$version"
	commit_all "statuspatch required"
else
	step "statuspatch-gen init"
	# init's last step, go get of the patcher package at $version, asks the
	# proxy for a module github.com/statuspatch/statuspatch/patcher, which this
	# sandbox's proxy answers 403 (proxy.golang.org: 404, then the module
	# above it, replaced here), and init puts every file back when a step
	# fails (since e0e67de1): init asks the module cache, which answers
	# 404, so go get takes the replaced module, as a user's does.
	go mod download
	GOPROXY="file://$(go env GOMODCACHE)/cache/download" bin/statuspatch-gen init -version "$version"
	commit_all "statuspatch-gen init"
fi

step "the patchers"
generate
commit_all "patchers generated"

# Built as a user's tree is: with its dependencies in the build cache the
# linter analyzes the whole module in one graph (the export-data driver),
# so a helper's write moves with its callers in other packages (an
# exported helper, a callback helper); otherwise it falls back to the
# per-package driver, where those stay.
step "go build ./..."
go build ./...

# ci before|after: statuspatch-lint -ci ./... (the blind, unresolved,
# empty and replayed writes, of any kind) into $work/$op-ci-<when>.log,
# one finding a line.
ci() {
	local rc=0
	bin/statuspatch-lint -ci ./... >"$work/$op-ci-$1.log" 2>&1 || rc=$?
	[[ $rc == 0 || $rc == 3 ]] || { cat "$work/$op-ci-$1.log"; die "statuspatch-lint -ci exited $rc"; }
	echo "statuspatch-lint -ci $1 -fix (exit status $rc): $(grep -c '^/' "$work/$op-ci-$1.log") findings"
	sed "s|^$src/||" "$work/$op-ci-$1.log"
}
step "statuspatch-lint -ci ./..., before -fix"
ci before

step "statuspatch-lint -fix ./..."
rc=0
read -ra fix_flags <<<"${MIGRATE_FIX_FLAGS:-}"
bin/statuspatch-lint -fix ${fix_flags[@]+"${fix_flags[@]}"} ./... 2>&1 | tee "$work/$op-fix.log" || rc=${PIPESTATUS[0]}
[[ $rc == 0 || $rc == 3 ]] || die "statuspatch-lint -fix exited $rc"
go mod tidy
commit_all "statuspatch-lint -fix ./..., go mod tidy"
git show --stat HEAD
echo "handwritten status writes left: $(writes) (statuspatch-lint -fix exit status $rc: 3 while any is left, each above with why)"
# The linter's own count, one line a finding (`file:line: fixed: ...` or
# `file:line: kept: <why>`): the writes it moved onto a patcher ("fixed:
# move ...") and those it kept; before = moved + kept. A blind MergeFrom
# it only locked ("fixed: add client.MergeFromWithOptimisticLock") is
# counted apart; one it locked and kept ("locked, kept:") is both.
moved=$(grep -c ': fixed: move' "$work/$op-fix.log" || true)
locked=$(grep -c ': fixed: add' "$work/$op-fix.log" || true)
# a write kept whose blind MergeFrom was locked (`file:line: locked, kept:
# ...`): kept, and counted among the locked too (kro's two)
lockedkept=$(grep -c ': locked, kept: ' "$work/$op-fix.log" || true)
left=$(grep -c ': kept: ' "$work/$op-fix.log" || true)
echo "statuspatch-lint findings: before $((moved + locked + lockedkept + left)), moved $moved, locked in place $((locked + lockedkept)), kept $((left + lockedkept)) ($lockedkept of them locked)"

step "statuspatch-lint -ci ./..., after -fix"
ci after
# A finding of before whose file has fewer findings after (lines move
# with the fix): to judge by hand, the write must now do what it asked.
for f in $(sed -n "s|^$src/\([^:]*\):.*|\1|p" "$work/$op-ci-before.log" | sort -u); do
	b=$(grep -c "^$src/$f:" "$work/$op-ci-before.log" || true)
	a=$(grep -c "^$src/$f:" "$work/$op-ci-after.log" || true)
	[[ $a -ge $b ]] || echo "-ci findings in $f: $b before -fix, $a after: judge each by reading"
done

step "after: go vet, the suites, the Makefile"
if [[ $skip_suites == skip ]]; then
	# the -ci run above type-checked every package without its tests: go
	# vet, tests included, of the packages -fix changed
	changed=$(git diff --name-only HEAD~1 -- '*.go' | xargs -r -n1 dirname | sort -u | sed 's|^|./|')
	[[ -z $changed ]] || go vet $changed
	echo "go vet of the packages -fix changed: ${changed:-none}; the suites and the Makefile skipped (MIGRATE_SUITES=skip)"
else
	go vet ./...
	hand_edits
	run_suites after
	after_make
fi
step "done"
