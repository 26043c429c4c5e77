// Command statuspatch-lint reports handwritten writes to the status
// subresource through a controller-runtime client (see package
// github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint).
//
//	statuspatch-lint [-audit|-ci] [-tests] ./...
//	go vet -vettool="$PWD/bin/statuspatch-lint" [-audit|-ci] [-tests] ./...
package main

import (
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(lint.Analyzer) }
