// Package examples is a kubebuilder-style operator that writes every status
// through statuspatch's generated patchers, with the contention proof and a
// demo. See README.md.
//
// `go generate ./...` in this directory regenerates, in this order:
// deepcopy (controller-gen object), the CRDs (controller-gen crd) and the
// status patchers (statuspatch-gen). controller-gen v0.23.0 is expected at
// ../bin/controller-gen (GOBIN=$PWD/../bin go install
// sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0); statuspatch-gen
// runs as a Go tool declared in go.mod.
package examples

//go:generate ../bin/controller-gen object:headerFile=hack/boilerplate.go.txt,year=2026 paths=./api/...
//go:generate ../bin/controller-gen crd paths=./api/... output:crd:artifacts:config=config/crd/bases
//go:generate go tool statuspatch-gen paths=./api/... headerFile=hack/boilerplate.go.txt year=2026 output:dir=./internal/patchers
