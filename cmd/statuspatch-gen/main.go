// Command statuspatch-gen generates typed status patchers for CRD kinds.
//
//	statuspatch-gen paths=./api/... [headerFile=hack/boilerplate.go.txt] [year=2026] [output:dir=./internal/patchers]
//	statuspatch-gen -w | -h
//
// See docs/generator.md.
package main

import (
	"fmt"
	"os"

	"github.com/statuspatch/statuspatch/generator"
)

func main() {
	if err := generator.Run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
