// Package generator implements statuspatch-gen: for every CRD kind with a
// status subresource it emits a typed <Kind>StatusPatcher over the runtime
// package github.com/statuspatch/statuspatch/patcher.
//
// The generator is a controller-tools genall.Generator named "statuspatch",
// so it can run from the statuspatch-gen command or be built into a custom
// controller-gen binary. The command line (options, help) is in cmd/statuspatch-gen.
package generator

//go:generate go run sigs.k8s.io/controller-tools/cmd/helpgen generate:headerFile=./testdata/hack/boilerplate.go.txt paths=.
