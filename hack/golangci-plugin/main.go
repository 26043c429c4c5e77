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

// sourceDigest names the plugin's source this binary was built from
// (build.sh sets it: -ldflags -X main.sourceDigest=...). golangci-lint
// salts its analysis cache with its version alone, so a version that
// stayed the same when the analyzers changed would serve the old
// analyzers' findings for every package that did not change; `golangci-lint
// custom` puts a hash of the plugins in the version for the same reason.
var sourceDigest string

func main() {
	version := golangciVersion + "-custom-statuspatch"
	if sourceDigest != "" {
		version += "-" + sourceDigest
	}
	info := commands.BuildInfo{Version: version, Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
	}
	if err := commands.Execute(info); err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
