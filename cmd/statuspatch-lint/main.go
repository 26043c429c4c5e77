// Command statuspatch-lint reports handwritten writes to the status
// subresource through a controller-runtime client (see package
// github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint).
//
//	statuspatch-lint [-audit|-ci] [-tests] ./...
//	statuspatch-lint -fix [-audit|-ci] ./...   (prints each fix and what is left; non-zero while findings remain)
//	go vet -vettool="$PWD/bin/statuspatch-lint" [-audit|-ci] [-tests] ./...
package main

import (
	"os"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	if wantsFix(os.Args[1:]) {
		os.Exit(fixAndReport(os.Args[1:], os.Stdout, os.Stderr))
	}
	singlechecker.Main(lint.Analyzer)
}
