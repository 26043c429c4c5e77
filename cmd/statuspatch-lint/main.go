// Command statuspatch-lint reports handwritten writes to the status
// subresource through a controller-runtime client (see package
// github.com/statuspatch/statuspatch/lint).
//
//	statuspatch-lint [-audit] [-tests] ./...
//	go vet -vettool=$(which statuspatch-lint) [-audit] [-tests] ./...
package main

import (
	"github.com/statuspatch/statuspatch/lint"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(lint.Analyzer) }
