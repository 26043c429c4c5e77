// Command golangci-lint-statuspatch is golangci-lint v2.15.0 with the
// statuspatch module plugin compiled in: the program `golangci-lint custom`
// generates from .custom-gcl.yml, written down so that it builds offline
// from the Go module proxy and proves the plugin compiles against a pinned
// golangci-lint.
//
//	cd hack/golangci-plugin && go build -o ../../bin/golangci-lint-statuspatch .
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	// The plugin registers itself as "statuspatch".
	_ "github.com/statuspatch/statuspatch/cmd/statuspatch-lint/plugin"
)

// golangciVersion must match the require line in go.mod.
const golangciVersion = "2.15.0"

func main() {
	info := commands.BuildInfo{Version: golangciVersion + "-custom-statuspatch", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
