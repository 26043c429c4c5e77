// Command statuspatch-gen generates typed status patchers for CRD kinds.
//
//	statuspatch-gen paths=./api/... [headerFile=hack/boilerplate.go.txt] [year=2026] [output:dir=./internal/patchers]
//	statuspatch-gen init [-dry-run] [DIR]
//	statuspatch-gen kubebuilder-plugin
//	statuspatch-gen -w | -h
//
// The command line follows controller-gen's: the generator is
// generator.Generator, registered under the name statuspatch, with
// controller-gen's output rules and paths. See docs/generator.md.
package main

import (
	"fmt"
	"os"
)

func main() {
	if isKBPluginName(os.Args[0]) {
		// kubebuilder runs its external plugins without arguments
		if err := runKBPlugin(".", os.Stdin, os.Stdout, os.Stderr); err != nil {
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
