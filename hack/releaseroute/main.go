// Command releaseroute is hack/release.sh, hack/release-test.sh and
// hack/release-concurrency-test.sh: it releases every published module of
// this repository at one version, consistently, and tests that release,
// alone (check.go) and beside other runs sharing the release cache
// (concurrent.go). It runs from anywhere; -root is
// the repository (the entry scripts pass their own checkout's).
//
//	releaseroute -root DIR release vX.Y.Z                dry run: the release commit and tags in a clone
//	releaseroute -root DIR release vX.Y.Z --keep DIR2    dry run, the prepared clone left in DIR2
//	releaseroute -root DIR release vX.Y.Z --apply        the release commit and tags fetched into DIR
//	releaseroute -root DIR test                          hack/release-test.sh
//	releaseroute -root DIR concurrent                    hack/release-concurrency-test.sh
//
// The published modules (plan.go's modules, internal/modproxy's Published):
// the runtime at the root, testenv, the tools cmd/statuspatch-gen and
// cmd/statuspatch-lint, the examples and hack/golangci-plugin. hack itself
// is not published. A release never pushes. Working in a clone of HEAD, it
//  1. moves every requirement between the published modules to the version
//     (go mod edit -require; which module requires which: modules), the
//     go.work replace lines and the versions in the install docs, from the
//     last release (the root module's version testenv/go.mod requires);
//  2. builds a file-based proxy of the modules at the version
//     (internal/releaseproxy, under the release cache's lock) and, module
//     by module, runs go mod tidy against it with GOWORK=off in each module
//     that requires a sibling, then go list -deps -test ./... with
//     -mod=readonly in every module: every import of every module
//     resolves, from the proxy, with a complete go.sum and no replace
//     directive. The root and the tools require no sibling: their go.mod
//     and go.sum are released as they are. (Compiling is left to CI.)
//  3. commits "release: VERSION" and tags VERSION and DIR/VERSION for each
//     nested module (the tag names the go command looks for).
//
// With --apply it first refuses a version without its CHANGELOG.md section
// and runs make test-compat-all (every supported line: each submission's CI
// tests the floor and the workspace's lines only), tagging nothing when
// either fails (gate.go); it then fetches that commit and the tags into the
// repository and fast-forwards the current branch to it; git push is
// yours to run.
//
// Exit status: 2 for a usage error, 1 for any other failure.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

const usage = "usage: hack/release.sh vX.Y.Z [--apply | --keep DIR]"

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, out, errw io.Writer) int {
	name, err := dispatch(ctx, args, out, errw)
	if err == nil {
		return 0
	}
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(errw, "%s: %v\n%s\n", name, err, usage)
		return 2
	}
	fmt.Fprintf(errw, "%s: %v\n", name, err)
	return 1
}

// dispatch runs the command args name; it returns the name its messages
// go under (release, release-test).
func dispatch(ctx context.Context, args []string, out, errw io.Writer) (string, error) {
	root := "."
	if len(args) >= 2 && args[0] == "-root" {
		root, args = args[1], args[2:]
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return "release", err
	}
	if len(args) == 0 {
		return "release", usageError{"no command (release, test, concurrent)"}
	}
	switch args[0] {
	case "test":
		if len(args) > 1 {
			return "release-test", usageError{"test takes no arguments"}
		}
		return "release-test", testRelease(ctx, root, out)
	case "concurrent":
		if len(args) > 1 {
			return "release-concurrency-test", usageError{"concurrent takes no arguments"}
		}
		mode, err := installMode(os.Getenv("RELEASE_CONCURRENCY_INSTALL"))
		if err != nil {
			return "release-concurrency-test", err
		}
		return "release-concurrency-test", testConcurrent(ctx, root, mode, out)
	case "release":
		r, err := parseRelease(args[1:])
		if err != nil {
			return "release", err
		}
		r.root, r.out, r.errw = root, out, errw
		return "release", r.run(ctx)
	}
	return "release", usageError{fmt.Sprintf("unknown command %q", args[0])}
}

// parseRelease reads release.sh's arguments: VERSION, then --apply or
// --keep DIR (DIR made absolute).
func parseRelease(args []string) (*release, error) {
	if len(args) == 0 {
		return nil, usageError{"no version"}
	}
	r := &release{version: args[0]}
	for i := 1; i < len(args); i++ {
		switch args[i] {
		case "--apply":
			r.apply = true
		case "--keep":
			if i+1 >= len(args) {
				return nil, usageError{"--keep needs a folder"}
			}
			i++
			keep, err := filepath.Abs(args[i])
			if err != nil {
				return nil, err
			}
			r.keep = keep
		default:
			return nil, usageError{fmt.Sprintf("unknown argument %q", args[i])}
		}
	}
	return r, nil
}
