// Command statuspatch-gen generates typed status patchers for CRD kinds.
//
//	statuspatch-gen paths=./api/... [headerFile=hack/boilerplate.go.txt] [year=2026] [output:dir=./internal/patchers]
//	statuspatch-gen init [-dry-run] [DIR]
//	statuspatch-gen kubebuilder-plugin
//	statuspatch-gen -w | -h
//
// The command line follows controller-gen's: the generator is
// generator.Generator, registered under the name statuspatch, with
// controller-gen's output rules and paths. See docs/generator.md. init
// and the kubebuilder plugin are internal/scaffold's.
package main

import (
	"fmt"
	"os"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/internal/scaffold"
)

func main() {
	if scaffold.IsKBPluginName(os.Args[0]) {
		// kubebuilder runs its external plugins without arguments
		if err := scaffold.RunKBPlugin(".", os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
