// Package generator implements statuspatch-gen: for every CRD kind with a
// status subresource it emits a typed <Kind>StatusPatcher over the runtime
// package github.com/statuspatch/statuspatch/patcher.
//
// The generator is a controller-tools genall.Generator named "statuspatch",
// so it can run from the statuspatch-gen command or be built into a custom
// controller-gen binary. The files are split by concern:
//
//	gen.go      Generator, its markers and the generation policy
//	kinds.go    which types are kinds, and their Status field
//	helpers.go  which condition/observedGeneration helpers a status supports
//	emit.go     rendering with the templates of package templates
//	imports.go  import names, recorded in gengo's import tracker
//	output.go   where files go; atomic writes and stale-file removal
//	errors.go   file:line error values
//
// The command line (options, help) is in cmd/statuspatch-gen.
package generator

//go:generate go run sigs.k8s.io/controller-tools/cmd/helpgen generate:headerFile=./testdata/hack/boilerplate.go.txt paths=.
