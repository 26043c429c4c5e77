# statuspatch: optimistic status writes for controller-runtime reconcilers.
# `make help` lists the targets. Every tool is `go install`ed at a pinned
# version into bin/; nothing is downloaded but Go modules.

GO ?= go
BIN := $(CURDIR)/bin
CONTROLLER_GEN_VERSION := v0.23.0
GOLANGCI_LINT_VERSION := v2.15.0
CONTROLLER_GEN := $(BIN)/controller-gen
STATUSPATCH_LINT := $(BIN)/statuspatch-lint
# Nested modules: they hold the heavy test-only dependencies (etcd, apiserver).
MODULES := testenv examples

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

##@ Build

.PHONY: build
build: ## Build statuspatch-gen and statuspatch-lint into bin/.
	$(GO) build -o $(BIN)/ ./cmd/...

.PHONY: tools
tools: build $(CONTROLLER_GEN) ## Install the pinned tools (controller-gen) into bin/.

$(CONTROLLER_GEN):
	GOBIN=$(BIN) $(GO) install sigs.k8s.io/controller-tools/cmd/controller-gen@$(CONTROLLER_GEN_VERSION)

##@ Test

.PHONY: test
test: test-root test-testenv test-examples ## Every module's tests (race detector on the root module).

.PHONY: test-root
test-root: tools ## Root module: patcher, generator (goldens, compile tests), lint (analysistest).
	$(GO) test -race ./...

.PHONY: test-testenv
test-testenv: ## testenv: the in-process API server, and the patcher's integration tests on it.
	cd testenv && $(GO) test ./...

.PHONY: test-examples
test-examples: tools ## examples: the example operator and the contention proof on testenv.
	cd examples && $(GO) test ./...

##@ Generate

.PHONY: generate
generate: tools ## Regenerate all generated code (deepcopy, CRDs, status patchers, goldens).
	$(GO) generate ./generator/...
	cd testenv && $(GO) generate ./...
	cd generator/testdata && $(GO) generate ./...
	cd examples && $(GO) generate ./...

.PHONY: verify-generated
verify-generated: generate ## Regenerate, then fail if anything changed.
	@changes=$$(git status --porcelain); \
	if [ -n "$$changes" ]; then \
		echo "generated files are stale; run 'make generate' and commit:"; echo "$$changes"; \
		git --no-pager diff --stat; exit 1; \
	fi

##@ Lint

.PHONY: lint
lint: build ## go vet, gofmt, and statuspatch-lint (zero handwritten status writes in examples).
	$(GO) vet ./...
	@for m in $(MODULES); do (cd $$m && $(GO) vet ./...) || exit 1; done
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/src/')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	cd examples && $(STATUSPATCH_LINT) ./...

.PHONY: lint-plugin
lint-plugin: ## Build golangci-lint $(GOLANGCI_LINT_VERSION) with the statuspatch module plugin and run it.
	./hack/golangci-plugin/build.sh $(BIN)/golangci-lint-statuspatch

##@ Run

.PHONY: demo
demo: tools ## Run the example operator on the in-process API server, patcher vs blind writes.
	cd examples && $(GO) run ./cmd/demo

.PHONY: bench
bench: tools ## Benchmarks, side by side with the alternatives (see docs/benchmarks.md).
	./hack/bench.sh

.PHONY: clean
clean: ## Remove bin/.
	rm -rf $(BIN)
