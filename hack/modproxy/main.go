// Command modproxy writes a file-based Go module proxy holding this
// repository's published modules at one version (hack/internal/modproxy,
// whose doc says what it holds and what it refuses). It is a program of the
// hack module, which the published modules do not require; run it from
// there, outside the workspace:
//
//	cd hack && GOWORK=off go run ./modproxy -repo .. -version v0.1.0 -out /tmp/proxy
//	GOPROXY=file:///tmp/proxy,https://proxy.golang.org GONOSUMDB=github.com/statuspatch/statuspatch go get ...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/statuspatch/statuspatch/hack/internal/modproxy"
)

func main() {
	version := flag.String("version", "", "the version to publish, e.g. v0.1.0 (required)")
	out := flag.String("out", "", "the proxy directory to write (required; created if missing)")
	repo := flag.String("repo", ".", "the repository's root directory")
	flag.Parse()
	if *version == "" || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy -version vX.Y.Z -out DIR [-repo DIR]")
		os.Exit(2)
	}
	if err := modproxy.Build(*repo, *version, *out, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
		os.Exit(1)
	}
}
