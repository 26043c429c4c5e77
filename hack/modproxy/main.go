// Command modproxy writes a file-based Go module proxy holding this
// repository's published modules (hack/internal/modproxy, whose doc says
// what it holds and what it refuses). It is a program of the hack module,
// which the published modules do not require; run it from there, outside
// the workspace.
//
// With -commit (docs/kubebuilder.md's "from a checkout" route) it publishes
// HEAD's commit at that commit's pseudo-version and prints the version
// alone: one version per commit, so two checkouts never share one in a
// module cache or a go.sum. With -version it publishes the working tree at
// a release's version, as the release routes do:
//
//	V=$(cd hack && GOWORK=off go run ./modproxy -repo .. -commit -out /tmp/proxy)
//	cd hack && GOWORK=off go run ./modproxy -repo .. -version v0.1.0 -out /tmp/proxy
//	GOPROXY=file:///tmp/proxy,https://proxy.golang.org GONOSUMDB=github.com/statuspatch/statuspatch go get ...@$V
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/modproxy"
)

func main() {
	version := flag.String("version", "", "the release version to publish the working tree at, e.g. v0.1.0")
	commit := flag.Bool("commit", false, "publish HEAD's commit at its pseudo-version, printed alone on stdout")
	out := flag.String("out", "", "the proxy directory to write (required; created if missing)")
	repo := flag.String("repo", ".", "the repository's root directory")
	flag.Parse()
	if (*version == "") == !*commit || *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: modproxy (-commit | -version vX.Y.Z) -out DIR [-repo DIR]")
		os.Exit(2)
	}
	if !*commit {
		if err := modproxy.Build(*repo, *version, *out, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
			os.Exit(1)
		}
		return
	}
	v, err := modproxy.BuildCommit(*repo, *out, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "modproxy: %v\n", err)
		os.Exit(1)
	}
	if dirty, err := modproxy.Uncommitted(*repo); err == nil && dirty != "" {
		fmt.Fprintf(os.Stderr, "modproxy: %s holds HEAD's commit; these uncommitted changes are not in it (commit them for a version that has them):\n%s",
			v, strings.TrimRight(dirty, "\n")+"\n")
	}
	fmt.Println(v)
}
