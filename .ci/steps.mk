# CI's steps as a graph for make's job server: .ci/run runs
#
#   make -k -j2 -f .ci/steps.mk
#
# two steps at a time on the 2 cores, each a target below whose recipe is
# .ci/step (each step timed, its lines tagged). make starts a target once
# the targets it names are done, in a free job slot; this file's
# dependencies are what the steps need of each other:
#
#   tools, then testenv-assets (envtest's kube-apiserver and etcd, from the
#   module proxy), then test-assets' tests on them; beside them, the older
#   lines' compile (hack/compat.sh build older, one line after another),
#   which needs none of them. One step, not one a line: make does not
#   start ready targets in `all`'s order, and a line's compile took the
#   slot tools freed before testenv-assets, which make test waits for.
#   test (the README's make test), each older line's tests
#   (hack/compat.sh test LINE) and the rest of make test-compat (the
#   workspace's line and the line below the floor) need the binaries.
#   release-routes (test-install, test-release, test-newcomer,
#   test-release-concurrent: one after another, they share the release
#   proxy's module cache) wait for the older lines' compile: the newcomer
#   route's scaffolds at those lines take what it compiled. lint-fuzz
#   (make fuzz, lint, lint-plugin) uses neither the compile nor the
#   binaries, and waits for both all the same: started in the slot the
#   compile frees, before the binaries, it took the slot the release
#   routes' chain needed, and a replay of the cold run's step times ended
#   326 s later (docs/benchmarks.md, CI).
#
# Each older line's tests are a step of their own so that they fill the
# job slots the other steps leave, in whatever order make takes them
# (docs/benchmarks.md, CI: one test-compat step of 718 s was the longest
# step of a warm run). Three steps at a time were measured too: slower
# (each step took more CPU beside two others). make verify-generated runs
# after this graph, alone (.ci/run): it rewrites generated files.
#
# A step that fails stops the steps that need it, not the others (-k): one
# run reports every failure of steps that do not need each other; make
# then exits non-zero.

STEP := .ci/step
# The steps that only compile (tools, envtest's binaries) beside the older
# lines' compile run each go command one process at a time (GOMAXPROCS=1:
# go's -p and the compiler's own threads): two cold compiles at once took
# 0.86 to 0.90 of the wall and CPU time they took at the default, and the
# older lines' compile, the longer, gets the larger share. Tests and the
# older lines' compile keep the default.
ONECORE := env GOMAXPROCS=1
# Once test-assets built them, a full-API test that finds no binaries
# fails instead of skipping.
FULLAPI := env STATUSPATCH_REQUIRE_FULLAPI=1

# The lines older than the workspace's, whose Go or versions differ from
# it (the workspace line's compile is make test's; the lines:
# hack/lines.txt), each a test step of its own.
OLDER := $(shell ./hack/lines.sh names older)
ifeq ($(strip $(OLDER)),)
$(error .ci/steps.mk: hack/lines.sh names older printed no line (above): the older lines' steps would not run)
endif
COMPAT_TESTS := $(OLDER:%=test-compat-%)

.PHONY: all tools compat-build testenv-assets test-assets test $(COMPAT_TESTS) test-compat-rest release-routes lint-fuzz
all: tools compat-build testenv-assets test-assets test $(COMPAT_TESTS) test-compat-rest release-routes lint-fuzz

tools:
	@$(STEP) tools "make tools" $(ONECORE) make tools

compat-build:
	@$(STEP) compat "compat build (older lines)" ./hack/compat.sh build older

testenv-assets: tools
	@$(STEP) assets "make testenv-assets" $(ONECORE) make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd

test-assets: testenv-assets
	@$(STEP) assets "make test-assets" make test-assets

test: test-assets
	@$(STEP) test "make test" $(FULLAPI) make test

# make test-compat is hack/compat.sh test: each older line, then the
# workspace's line and the line below the floor.
$(COMPAT_TESTS): test-compat-%: compat-build test-assets
	@$(STEP) compat "compat test $*" $(FULLAPI) ./hack/compat.sh test $*

test-compat-rest: test-assets
	@$(STEP) compat "compat test workspace below" $(FULLAPI) ./hack/compat.sh test workspace below

release-routes: compat-build test-assets
	@$(STEP) release "make test-install" $(FULLAPI) make test-install
	@$(STEP) release "make test-release" $(FULLAPI) make test-release
	@$(STEP) release "make test-newcomer" $(FULLAPI) make test-newcomer
	@$(STEP) release "make test-release-concurrent" $(FULLAPI) env RELEASE_CONCURRENCY_INSTALL=quick make test-release-concurrent

# The real-server fuzzers (FuzzTransportFaults, FuzzSettleFaults) need a
# coverage-instrumented build of the API server: about 10 of CI's minutes
# cold on 2 cores (docs/benchmarks.md). Their seed corpora run as tests in
# make test; fuzz them with `make fuzz` after changing settling.
lint-fuzz: compat-build test-assets
	@$(STEP) fuzz "make fuzz (FUZZ_SERVER=0)" $(FULLAPI) make fuzz FUZZ_SERVER=0
	@$(STEP) lint "make lint" $(FULLAPI) make lint
	@$(STEP) lint "make lint-plugin" $(FULLAPI) make lint-plugin
