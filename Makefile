# statuspatch: optimistic status writes for controller-runtime reconcilers.
# `make help` lists the targets. Every tool is `go install`ed at a pinned
# version into bin/; nothing is downloaded but Go modules.

GO ?= go
BIN := $(CURDIR)/bin
CONTROLLER_GEN_VERSION := v0.23.0
GOLANGCI_LINT_VERSION := v2.15.0
CONTROLLER_GEN := $(BIN)/controller-gen
STATUSPATCH_LINT := $(BIN)/statuspatch-lint
GOLANGCI_LINT := $(BIN)/golangci-lint-statuspatch
# One module per thing a user imports or installs (docs/compatibility.md):
# the runtime at the root and testenv require the oldest supported line; the
# tools under cmd/ and the examples may require newer ones. Modules that need
# no other module of this repository run with GOWORK=off, exactly as
# published; testenv and the examples build against this checkout through
# go.work.
TOOL_MODULES := cmd/statuspatch-gen cmd/statuspatch-lint hack
MODULES := testenv testenv/explore examples $(TOOL_MODULES)
# ROOT_ENV: the root module's environment, for go and the tools that run it.
ROOT_ENV := GOWORK=off
ROOT_GO := $(ROOT_ENV) $(GO)
GOLDENS := cmd/statuspatch-gen/generator/testdata

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

##@ Build

.PHONY: build
# -buildvcs=false: without it go (1.24 and later) stamps the commit into
# each binary, so every commit made a new bin/statuspatch-lint, and go vet
# keys its results by the vet tool's content: make lint's go vet
# -vettool=bin/statuspatch-lint analysed every dependency of examples/ again
# after any commit, about 125 CPU-s (3 once the tool is the same;
# docs/benchmarks.md, CI). A build from a checkout is "(devel)", as
# statuspatch-gen -version and init say.
build: ## Build statuspatch-gen and statuspatch-lint into bin/.
	cd cmd/statuspatch-gen && $(ROOT_GO) build -buildvcs=false -o $(BIN)/ .
	cd cmd/statuspatch-lint && $(ROOT_GO) build -buildvcs=false -o $(BIN)/ .

.PHONY: tools
tools: build $(CONTROLLER_GEN) ## Install the pinned tools (controller-gen) into bin/.

$(CONTROLLER_GEN):
	GOBIN=$(BIN) $(GO) install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_GEN_VERSION)

# testenv's full-API kube-apiserver (and with TESTENV_ASSETS_FLAGS=--etcd
# envtest's etcd too), built from source through the module proxy into
# os.UserCacheDir()/statuspatch/testenv-assets (minutes the first time,
# nothing after). For envtest:
# KUBEBUILDER_ASSETS=$$(make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd).
# The release: the install line's of hack/lines.txt (1.N.x), read when used.
TESTENV_ASSETS_VERSION ?= $(or $(shell $(CURDIR)/hack/lines.sh assets),$(error hack/lines.sh assets failed))
TESTENV_ASSETS_FLAGS ?=

.PHONY: testenv-assets
testenv-assets: ## Build the full API's kube-apiserver (TESTENV_ASSETS_VERSION: the install line's release, hack/lines.txt; TESTENV_ASSETS_FLAGS=--etcd adds envtest's etcd) into the cache; print the folder.
	@cd testenv && $(GO) run ./cmd/testenv-assets use $(TESTENV_ASSETS_FLAGS) -p path $(TESTENV_ASSETS_VERSION)

##@ Test

.PHONY: test
test: test-root test-tools test-testenv test-examples ## Every module's tests (race detector where the root module runs patchers concurrently).

# Tests run with -vet=off: `make lint` vets every module with all of go vet's
# analyzers, and go test's own vet pass would analyse every dependency again
# (about 860 packages for the root module alone) on a cold cache. The race
# detector runs where tests run patchers concurrently (patchertest's
# contention runs); elsewhere it only made the in-process generator and
# analyzers several times slower and compiled a second, instrumented copy of
# their dependencies. docs/benchmarks.md#cold-start has the measurements.
# -ldflags=-w links the test binaries without DWARF, the tables debuggers
# read (stack traces and panics use the binary's own tables, kept): about a
# third of each link's CPU, and make test and CI link over a hundred
# binaries of the Kubernetes libraries (docs/benchmarks.md, CI).
# -timeout 30m: go test's default 10 minutes is a third of what a package
# of the explorer takes on a loaded machine (testenv/explore at the floor
# line timed out at 600 s in a cold CI run at load 15-20; warm CI runs took
# 150-240 s); a target that needs longer says so after these flags.
TEST_FLAGS := -vet=off -ldflags=-w -timeout 30m

# The tests that read a page of docs/ (or README.md) from outside their
# module read this digest of those pages too: go's test cache checks the
# variables a test read, not files outside its module, so a doc changed
# now runs them again (hack's tests run every time instead, below).
# hack/docpages' TestDocReadersReadTheDigest finds a test that reads a
# page without it.
export STATUSPATCH_DOCS_DIGEST := $(shell cat README.md docs/*.md | cksum)

.PHONY: test-root
test-root: ## The runtime module (patcher, patchertest) at the floor it requires, then again with -race.
	$(ROOT_ENV) ./hack/warm-cache.sh .
	$(ROOT_GO) test $(TEST_FLAGS) ./...
	$(ROOT_ENV) ./hack/warm-cache.sh . -race ./patcher/... ./patchertest/...
	$(ROOT_GO) test $(TEST_FLAGS) -race ./patcher/... ./patchertest/...

# hack's tests read docs/, examples/ and other files outside the hack
# module, which go's test cache does not check again ("files outside the
# module"), so a cached pass outlived a change that broke one: they run
# every time (-count=1, a few seconds).
#
# statuspatch-gen's and statuspatch-lint's tests build other modules of
# this repository in their own go commands (the goldens and scaffolds on
# the runtime, the linter's end-to-end fix on testenv and examples, the
# linter itself from its testdata copied with cp), which go's test cache
# does not see either: they read STATUSPATCH_SOURCE_DIGEST, this digest of
# those modules' files (tracked and new, as they are on disk), so a change
# there runs them again. hack/docpages' TestSubprocessBuildersReadTheDigest
# finds a test package of theirs that runs a command without it.
SOURCE_DIGEST_PATHS := Makefile go.mod go.sum go.work go.work.sum patcher patchertest testenv examples cmd/statuspatch-lint hack/golangci-plugin
source_digest = { git ls-files -co --exclude-standard -- $(SOURCE_DIGEST_PATHS); git ls-files -z -co --exclude-standard -- $(SOURCE_DIGEST_PATHS) | xargs -0 cat 2>/dev/null; } | cksum

.PHONY: test-tools
test-tools: tools ## statuspatch-gen (goldens, compile tests), statuspatch-lint (analysistest), hack's Go programs.
	@d=$$($(source_digest)); for m in $(TOOL_MODULES); do c=; [ $$m != hack ] || c=-count=1; echo "cd $$m && go test $$c ./..."; (cd $$m && STATUSPATCH_SOURCE_DIGEST="$$d" $(ROOT_GO) test $(TEST_FLAGS) $$c ./...) || exit 1; done

.PHONY: test-testenv
test-testenv: ## testenv: the in-process API server, and the patcher's integration tests on it; the explorer (its own module, its servers testenv-server processes).
	./hack/warm-cache.sh testenv
	cd testenv && $(GO) test $(TEST_FLAGS) ./...
	cd testenv/explore && STATUSPATCH_SOURCE_DIGEST="$$($(source_digest))" $(GO) test $(TEST_FLAGS) ./...

.PHONY: test-assets
test-assets: ## Build envtest's binaries (kube-apiserver and etcd) from the module proxy into the cache (minutes the first time), then test on them: testenv-assets' integration test, testenv's envtest backend, the explorer on each backend. make test's full-API tests find the same cache.
	@echo "make testenv-assets: kube-apiserver and etcd $(TESTENV_ASSETS_VERSION) (minutes the first time; progress below)"
	@$(MAKE) -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd
	cd testenv && TESTENV_ASSETS_BUILD=1 $(GO) test $(TEST_FLAGS) -count=1 -timeout 60m -run Integration ./cmd/testenv-assets
	cd testenv && KUBEBUILDER_ASSETS=$$($(MAKE) -s -C .. testenv-assets TESTENV_ASSETS_FLAGS=--etcd) $(GO) test $(TEST_FLAGS) -count=1 -run 'TestEnvtestBackend' .
	cd examples && KUBEBUILDER_ASSETS=$$($(MAKE) -s -C .. testenv-assets TESTENV_ASSETS_FLAGS=--etcd) $(GO) test $(TEST_FLAGS) -count=1 -run 'TestRolloutOnEachBackend' ./internal/explore/

.PHONY: explore-operators
explore-operators: ## Explore thirteen real operators (RabbitMQ's cluster-operator, KubeRay, LeaderWorkerSet, JobSet, grafana-operator, Katib; scheduler-plugins in examples/realops2; cluster-autoscaler-operator and machine-api-operator's MachineSet controller in examples/realops3; karpenter's NodePool and NodeClaim controllers in examples/realops4; cert-manager's trust-manager in examples/realops5; Cluster API's MachineDeployment controller in examples/realops6; kueue's core controllers in examples/realops7) from their own SetupWithManager, taken from the module proxy at pinned versions, on the full API (docs/explore-your-operator.md). Not in make test.
	@echo "make testenv-assets: kube-apiserver and etcd $(TESTENV_ASSETS_VERSION) (minutes the first time)"
	@$(MAKE) -s testenv-assets build
	cd examples/realops && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v -timeout 150m .
	cd examples/realops2 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v -timeout 60m .
	cd examples/realops3 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v -timeout 90m .
	cd examples/realops4 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v .
	cd examples/realops5 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v .
	cd examples/realops6 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v .
	cd examples/realops7 && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -v .

# The real-operator examples' known bugs, each a test of seconds: the
# bugs played on the server without the explorer, the explorer's replays
# of the schedules its searches found (their seeds), and the false alarms
# it once raised there. No search with a budget (make explore-operators'
# default and deepening searches, minutes each), nor TestRayPodListLag (a
# 3-minute search).
KNOWN_BUGS_realops := TestRayDuplicateHeadPod|TestRabbitmqRecreatesDeletedCluster|TestJobSetDeletesRecreatedJobsByName|TestJobSetDeletesByNameReplay|TestKatibExperimentFalseAlarmConverges|TestKatibExperimentFalseAlarmOwnDelete|TestLeaderWorkerSetOwnApplyReplay|TestLeaderWorkerSetReplaceReplay|TestGrafanaOverwritesPinnedVersion|TestLostWriteOfADeletedObject
KNOWN_BUGS_realops2 := TestPodGroupFailedSetBackToRunning|TestPodGroupFailedSetBackReplay|TestLostWriteOfADerivedFieldRecomputed
KNOWN_BUGS_realops3 := TestCAODeleteAfterRetargetLeavesOldTarget|TestCAOStaleLeaderReannotatesOldTarget|TestMachineSetReplicasAfterACrashReplay|TestMachineSetLaggingLeaderReplay
KNOWN_BUGS_realops4 := TestKarpenterNodeClaimLeakReplay|TestKarpenterNodeClaimConditionsFalseAlarm|TestKarpenterHashOverwrittenReplay
KNOWN_BUGS_realops5 := TestTrustManagerOldLeaderConditionReplay|TestTrustManagerCleanupAfterARestartReplay
KNOWN_BUGS_realops6 := TestMachineDeploymentDuplicateReplay
KNOWN_BUGS_realops7 := TestLocalQueueRestartReplay
KNOWN_BUGS_MODULES := realops realops2 realops3 realops4 realops5 realops6 realops7

.PHONY: explore-known-bugs
explore-known-bugs: ## The known bugs of make explore-operators' operators found again (their replays, the bugs played on the server, the false alarms not raised; 24 tests, no budgeted search): about 5 minutes warm; empty caches download and build the operators (about 2,300 CPU-s). Not in CI: make explore-operators runs these tests too, in make test-compat-all before each release.
	@echo "make testenv-assets: kube-apiserver and etcd $(TESTENV_ASSETS_VERSION) (minutes the first time)"
	@$(MAKE) -s testenv-assets build
	@fail=; $(foreach m,$(KNOWN_BUGS_MODULES),echo "cd examples/$(m) && go test -run '^($(KNOWN_BUGS_$(m)))$$'"; \
		(cd examples/$(m) && GOWORK=off STATUSPATCH_REQUIRE_FULLAPI=1 STATUSPATCH_LINT=$(STATUSPATCH_LINT) $(GO) test $(TEST_FLAGS) -count=1 -run '^($(KNOWN_BUGS_$(m)))$$' .) || fail="$$fail $(m)"; \
	) test -z "$$fail" || { echo "make explore-known-bugs: failed in$$fail"; exit 1; }

.PHONY: test-examples
test-examples: tools ## examples: the example operator and the contention proof on testenv.
	./hack/warm-cache.sh examples
	cd examples && $(GO) test $(TEST_FLAGS) ./...

.PHONY: test-compat
test-compat: ## The runtime, testenv and the goldens at every supported controller-runtime/k8s.io/Go line (hack/compat.sh; the lines: hack/lines.txt).
	./hack/compat.sh test

# Each submission's CI tests the floor line and the workspace's line
# (.ci/steps.mk); every supported line is tested before a release:
# hack/release.sh runs this target first and tags nothing when it fails.
.PHONY: test-compat-all
test-compat-all: tools ## Every supported line: make test-compat, adoption at each older line (hack/adopt-lines.sh), docs/kubebuilder.md's newcomer route at every line, and make explore-operators (about 3 hours: too long for a submission's CI). hack/release.sh runs it before tagging.
	./hack/compat.sh test
	$(E2E_TEST) -run '^(TestAdopt|TestNewcomer)$$'
	$(MAKE) explore-operators

# Each fuzzer runs a count of inputs, not a duration: a duration
# (-fuzztime 30s) fails at its deadline with a bare "context deadline
# exceeded" and no input when a worker is still running (Go's coordinator,
# go.dev/issue/75804, fixed in Go 1.27 only). The counts are about 30 s each
# on a quiet 2-core machine; FUZZTIME=<duration or Nx> overrides them all.
FUZZTIME ?=
fuzztime = $(if $(FUZZTIME),$(FUZZTIME),$(1))

.PHONY: fuzz
fuzz: ## Fuzz the patcher's call sequences (no panic, no silent loss), then transport faults on the real API server, then settling on a drifted CRD (apply removals, pruned fields, JSON Patch removals, a lagging reader), then the settling oracle (seeded schedules of writers, every verdict checked against the server's history; then in CRDs that prune the write token), about 30 s each (a count of inputs; FUZZTIME overrides); FUZZ_SERVER=0 fuzzes the patcher alone (the real-server fuzzers' seed corpora still run in make test).
	$(ROOT_GO) test $(TEST_FLAGS) ./patcher -run '^$$' -fuzz '^FuzzCallSequences$$' -fuzztime $(call fuzztime,5000x)
ifneq ($(FUZZ_SERVER),0)
	cd testenv && $(GO) test $(TEST_FLAGS) ./internal/patcherit -run '^$$' -fuzz '^FuzzTransportFaults$$' -fuzztime $(call fuzztime,1500x)
	cd testenv && $(GO) test $(TEST_FLAGS) ./internal/patcherit -run '^$$' -fuzz '^FuzzSettleFaults$$' -fuzztime $(call fuzztime,350x) -parallel 1
	cd testenv && $(GO) test $(TEST_FLAGS) ./internal/patcherit -run '^$$' -fuzz '^FuzzOracle$$' -fuzztime $(call fuzztime,120x) -parallel 1
	cd testenv && $(GO) test $(TEST_FLAGS) ./internal/patcherit -run '^$$' -fuzz '^FuzzOracleTokenTraps$$' -fuzztime $(call fuzztime,90x) -parallel 1
endif

.PHONY: test-install
test-install: tools ## README's install and kubebuilder steps in an operator pinned at the install line (hack/lines.txt), from a module proxy built here (adoption at the older lines: make test-compat-all).
	$(E2E_TEST) -run '^TestInstall$$'

.PHONY: test-release
test-release: ## hack/release.sh in dry-run mode on a temporary clone.
	./hack/release-test.sh

.PHONY: test-release-concurrent
test-release-concurrent: tools ## Two hack/release.sh runs (dry, --apply in a scratch clone) and hack/install-test.sh started at once: all pass (RELEASE_CONCURRENCY_INSTALL=quick: a short consumer instead of the install test).
	./hack/release-concurrency-test.sh

# The routes (test-install, test-newcomer, test-compat-all) are go test
# suites, hack/e2e (TestInstall, TestAdopt/LINE, TestNewcomer/LINE), which
# run only with STATUSPATCH_E2E=1: one proxy of this checkout for the whole
# run, lines as subtests, two at a time (-parallel 2); -count=1 (they read
# files outside the hack module, which go's test cache does not check), no
# timeout (a cold line takes tens of minutes), each step as it runs (-v).
# E2E_FLAGS: more go test flags (-parallel 1: a line at a time).
E2E_FLAGS ?=
E2E_TEST = cd hack && STATUSPATCH_E2E=1 NEWCOMER_ENVTEST_K8S_VERSION=$(NEWCOMER_ENVTEST_K8S_VERSION) $(ROOT_GO) test $(TEST_FLAGS) -count=1 -timeout 0 -v -parallel 2 $(E2E_FLAGS) ./e2e
# NEWCOMER_LINE: the lines (hack/lines.txt; a line or a selector of
# hack/lines.sh) test-newcomer runs, each with its Go toolchain (unset:
# every supported line); their subtests, TestNewcomer/LINE.
# NEWCOMER_ENVTEST_K8S_VERSION: the envtest Kubernetes of the route's
# full-API step (make setup-envtest, then the suite on envtest; the
# scaffold's make test itself runs on testenv's embedded server). Unset,
# the step runs at the line whose own release make test-assets builds
# ($(TESTENV_ASSETS_VERSION), the install line's) and is left out at the
# others, saying so (their testenv's full-API tests run in make
# test-compat); a release: every line, ENVTEST_K8S_VERSION=<release> on
# make setup-envtest's command line where the line's own is another; line:
# every line with its own (its Makefile derives it from k8s.io/api), built
# from source, about 20 min a line cold.
NEWCOMER_LINE ?=
NEWCOMER_ENVTEST_K8S_VERSION ?=
.PHONY: test-newcomer
test-newcomer: tools ## docs/kubebuilder.md's steps as written on a kubebuilder-shaped scaffold at every supported line (NEWCOMER_LINE=LINE: one), from a module proxy built here: statuspatch-gen init, make generate, the -fix block, the scaffold's make test (testenv's embedded server; then, at the install line, the suite on envtest) and make lint, init again changing nothing; each line's time.
	$(E2E_TEST) -run '^TestNewcomer$$$(if $(NEWCOMER_LINE),/^($(subst $() ,|,$(shell ./hack/lines.sh names $(NEWCOMER_LINE))))$$)'

##@ Generate

.PHONY: generate
generate: tools ## Regenerate all generated code (deepcopy, CRDs, status patchers, goldens).
	cd cmd/statuspatch-gen && $(ROOT_GO) generate ./generator/...
	$(ROOT_GO) generate ./internal/testapi/...
	cd testenv && $(GO) generate ./...
	cd $(GOLDENS) && $(ROOT_GO) generate ./...
	cd examples && $(GO) generate ./...

.PHONY: verify-generated
verify-generated: generate ## Regenerate (code, tidy go.mod files, the matrix's go.mod files), then fail if anything changed.
	@for m in . $(filter-out examples testenv testenv/explore,$(MODULES)); do (cd $$m && $(ROOT_GO) mod tidy) || exit 1; done
	./hack/gomod.sh testenv/explore mod tidy
	./hack/gomod.sh testenv mod tidy
	./hack/gomod.sh examples mod tidy
	./hack/compat.sh update
	./hack/workspace-versions.sh cmd/statuspatch-lint/lint/testdata/realmod
	@changes=$$(git status --porcelain); \
	if [ -n "$$changes" ]; then \
		echo "generated files or go.mod files are stale; run 'make verify-generated' and commit what it changed:"; echo "$$changes"; \
		git --no-pager diff --stat; exit 1; \
	fi

##@ Lint

.PHONY: lint
lint: build $(GOLANGCI_LINT) ## go vet, gofmt, golangci-lint (.golangci.yml), statuspatch-lint on the examples, doc checks.
	$(ROOT_GO) vet ./...
	@for m in $(MODULES); do (cd $$m && $(GO) vet ./...) || exit 1; done
	cd $(GOLDENS) && $(ROOT_GO) vet ./...
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/src/')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(ROOT_ENV) $(GOLANGCI_LINT) run ./...
	@for m in $(MODULES); do (cd $$m && $(GOLANGCI_LINT) run --config $(CURDIR)/.golangci.yml ./...) || exit 1; done
	cd examples && $(GO) vet -vettool=$(STATUSPATCH_LINT) ./...
	cd examples && $(STATUSPATCH_LINT) ./...
	./hack/check-docs.sh

# Rebuilt when the plugin's source changes, the analyzers' included
# (build.sh --sources): its version names that source, and golangci-lint
# keys its cache by the version.
$(GOLANGCI_LINT): $(wildcard hack/golangci-plugin/*) $(shell ./hack/golangci-plugin/build.sh --sources)
	./hack/golangci-plugin/build.sh $(GOLANGCI_LINT)

.PHONY: lint-plugin
lint-plugin: ## Build golangci-lint $(GOLANGCI_LINT_VERSION) with the statuspatch module plugin and run it.
	./hack/golangci-plugin/build.sh $(BIN)/golangci-lint-statuspatch

##@ Run

.PHONY: demo
demo: tools ## Run the example operator on the in-process API server, patcher vs blind writes.
	./hack/warm-cache.sh examples
	cd examples && $(GO) run ./cmd/demo

# The benchmarks are go test suites, hack/bench, run only with
# STATUSPATCH_BENCH=1: BENCH picks the suite (TestBench: make bench's
# sections, each a subtest; Instructions, LintDriver, RealAPIs,
# ColdExplore), BENCH_FLAGS gives it flags (hack/bench/doc.go).
BENCH ?= Bench
BENCH_FLAGS ?=
.PHONY: bench
bench: tools ## Benchmarks, side by side with the alternatives (see docs/benchmarks.md; BENCH=, BENCH_FLAGS=).
	cd hack && STATUSPATCH_BENCH=1 $(GO) test -count=1 -timeout 0 -v ./bench -run '^Test$(BENCH)' $(BENCH_FLAGS)

.PHONY: clean
clean: ## Remove bin/.
	rm -rf $(BIN)
