# CI's steps as a graph for make's job server: .ci/run runs
#
#   make -k -j2 -f .ci/steps.mk
#
# two steps at a time on the 2 cores, each a target below whose recipe is
# .ci/step (each step timed, its lines tagged). make starts a target once
# the targets it names are done, in a free job slot.
#
# What each submission tests (docs/compatibility.md, "What CI tests"): the
# workspace's line whole (tools, envtest's binaries, make test, lint, the
# plugin, verify-generated), the floor line's build and tests with its own
# Go, the line below the floor, and the install, release and newcomer
# routes at the install line only. Every supported line, adoption at each
# older line and the newcomer route at every line are make
# test-compat-all, which hack/release.sh runs before it tags.
#
#   tools, then testenv-assets (envtest's kube-apiserver and etcd, from the
#   module proxy), then test-assets' tests on them; beside them, the floor
#   line's compile (hack/compat.sh build floor), which needs none of them.
#   test (the README's make test), the floor line's tests and the rest
#   (the workspace's line and the line below the floor) need the binaries.
#   release-routes (test-install, test-release, test-newcomer at the
#   install line, test-release-concurrent: one after another, they share
#   the release proxy's module cache) need the binaries. lint-fuzz (make
#   fuzz, lint, lint-plugin) waits for the floor's compile so that it does
#   not take the slot the binaries' build needs.
#
# make verify-generated runs after this graph, alone (.ci/run): it
# rewrites generated files.
#
# A step that fails stops the steps that need it, not the others (-k): one
# run reports every failure of steps that do not need each other; make
# then exits non-zero.

STEP := .ci/step
# The steps that only compile (tools, envtest's binaries) beside the floor
# line's compile run each go command one process at a time (GOMAXPROCS=1:
# go's -p and the compiler's own threads): two cold compiles at once took
# 0.86 to 0.90 of the wall and CPU time they took at the default, and the
# floor line's compile, the longer, gets the larger share. Tests and the
# floor line's compile keep the default.
ONECORE := env GOMAXPROCS=1
# Once test-assets built them, a full-API test that finds no binaries
# fails instead of skipping.
FULLAPI := env STATUSPATCH_REQUIRE_FULLAPI=1

# The floor line (hack/lines.txt), tested with its own Go in every
# submission, and the install line, whose routes run.
FLOOR := $(shell ./hack/lines.sh names floor)
INSTALL := $(shell ./hack/lines.sh names install)
ifeq ($(strip $(FLOOR)),)
$(error .ci/steps.mk: hack/lines.sh names floor printed no line (above): the floor line's steps would not run)
endif
ifeq ($(strip $(INSTALL)),)
$(error .ci/steps.mk: hack/lines.sh names install printed no line (above): the routes would not run)
endif

.PHONY: all tools compat-build testenv-assets test-assets test test-compat-floor test-compat-rest release-routes lint-fuzz
all: tools compat-build testenv-assets test-assets test test-compat-floor test-compat-rest release-routes lint-fuzz

tools:
	@$(STEP) tools "make tools" $(ONECORE) make tools

compat-build:
	@$(STEP) compat "compat build floor" ./hack/compat.sh build $(FLOOR)

testenv-assets: tools
	@$(STEP) assets "make testenv-assets" $(ONECORE) make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd

test-assets: testenv-assets
	@$(STEP) assets "make test-assets" make test-assets

test: test-assets
	@$(STEP) test "make test" $(FULLAPI) make test

test-compat-floor: compat-build test-assets
	@$(STEP) compat "compat test floor" $(FULLAPI) ./hack/compat.sh test $(FLOOR)

test-compat-rest: test-assets
	@$(STEP) compat "compat test workspace below" $(FULLAPI) ./hack/compat.sh test workspace below

release-routes: test-assets
	@$(STEP) release "make test-install" $(FULLAPI) make test-install
	@$(STEP) release "make test-release" $(FULLAPI) make test-release
	@$(STEP) release "make test-newcomer (install line)" $(FULLAPI) make test-newcomer NEWCOMER_LINE=$(INSTALL)
	@$(STEP) release "make test-release-concurrent" $(FULLAPI) env RELEASE_CONCURRENCY_INSTALL=quick make test-release-concurrent

# The real-server fuzzers (FuzzTransportFaults, FuzzSettleFaults) need a
# coverage-instrumented build of the API server: about 10 of CI's minutes
# cold on 2 cores (docs/benchmarks.md). Their seed corpora run as tests in
# make test; fuzz them with `make fuzz` after changing settling.
lint-fuzz: compat-build test-assets
	@$(STEP) fuzz "make fuzz (FUZZ_SERVER=0)" $(FULLAPI) make fuzz FUZZ_SERVER=0
	@$(STEP) lint "make lint" $(FULLAPI) make lint
	@$(STEP) lint "make lint-plugin" $(FULLAPI) make lint-plugin

# The real operators' known bugs (make explore-known-bugs) are not a
# step: each of their seven modules builds whole operators at its own
# k8s.io line, 2,354 CPU-s and 2,274 s wall of a run whose module cache
# lacked them (2026-12-02); with them a cold run took 95 minutes
# (2026-11-30) and a submission's CI ran over its 90. make
# test-compat-all runs them, in make explore-operators, before each
# release (docs/benchmarks.md, CI).
