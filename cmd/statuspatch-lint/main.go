// Command statuspatch-lint reports handwritten writes to the status
// subresource through a controller-runtime client (see package
// github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint).
//
//	statuspatch-lint [-audit|-ci] [-tests] ./...
//	statuspatch-lint -fix [-audit|-ci] ./...   (prints each fix and what is left; non-zero while findings remain)
//	statuspatch-lint [-audit|-ci] -write-baseline=FILE ./...   (records the findings; exit 0)
//	statuspatch-lint [-audit|-ci] -baseline=FILE ./...         (reports the others and FILE's stale entries)
//	go vet -vettool="$PWD/bin/statuspatch-lint" [-audit|-ci] [-tests] ./...
//
// -fix moves handwritten status writes onto the generated patchers where it
// can (docs/lint.md, "Moving writes onto the generated patchers"), else
// adds the optimistic lock. The command, not the analyzer, finds the
// module's generated patchers on disk (internal/ondisk) and passes them
// as -patchers, and it reads and writes baselines (baseline.go),
// filtering the analyzer's findings after the analysis: the analyzer
// reads no file outside the package it is given and writes none.
//
// Test files are loaded only with -tests (or an explicit -test): findings
// in them are reported only with -tests, and loading them type-checks
// everything the tests import (testenv: the API server and etcd).
//
// The command's parts, one line each:
//
//   - main.go: flags, and the analyzer's -patchers and -test-refs from
//     internal/ondisk (reads the module's generated and test files).
//   - fix.go: -fix in child runs, and what it did and left.
//   - exportdriver.go: the export-data driver; internal/exportdata loads
//     the packages as go vet does, internal/fixfiles writes the fixes.
//   - baseline.go, baselinekey.go: baselines and their keys.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/exportdata"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	if os.Getenv(exportdata.ToolexecEnv) != "" {
		os.Exit(exportdata.RefuseTool(os.Args[1:]))
	}
	args := withTestRefs(withPatchers(defaultArgs(os.Args[1:]), "."), ".")
	if os.Getenv(childEnv) == "" && !underVet(args) {
		rest, read, write, err := baselineFlags(args)
		if err != nil {
			fmt.Fprintf(os.Stderr, "statuspatch-lint: %v\n", err)
			os.Exit(2)
		}
		if read != "" || write != "" {
			self, err := os.Executable()
			if err != nil {
				fmt.Fprintf(os.Stderr, "statuspatch-lint: %v\n", err)
				os.Exit(1)
			}
			os.Exit(runBaseline(self, rest, read, write, os.Stderr))
		}
	}
	if wantsFix(args) {
		os.Exit(fixAndReport(args, os.Stdout, os.Stderr))
	}
	if !underVet(args) {
		if code, ok := runExportDriver(args, os.Stdout, os.Stderr); ok {
			os.Exit(code)
		}
	}
	os.Args = append(os.Args[:1], args...)
	singlechecker.Main(lint.Analyzer)
}

// defaultArgs adds -test=false to a standalone run's flags unless they
// give -test or a true -tests. The checker's -test (default true) loads
// test files; the analyzer's -tests (default false) reports in them, so by
// default the checker would type-check the tests and everything they
// import only to report nothing there. Under go vet (a .cfg argument) and
// for -flags and -V, which go vet asks, args are returned unchanged.
func defaultArgs(args []string) []string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			if strings.HasSuffix(a, ".cfg") {
				return args
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case name == "flags" || name == "V" || name == "test":
			return args
		case name == "tests" && (!hasVal || val == "true" || val == "1"):
			return args
		}
	}
	return append([]string{"-test=false"}, args...)
}

// withPatchers adds -patchers, the generated patchers found on disk in
// dir's module (ondisk.PatchersArg), to a standalone run's flags unless they give
// it. Under go vet (a .cfg argument), for -flags and -V, args are returned
// unchanged: go vet caches a tool's results by the package's own files,
// so a lookup elsewhere would go stale there.
func withPatchers(args []string, dir string) []string {
	return withDiskFlag(args, "patchers", func() string { return ondisk.PatchersArg(dir) })
}

// withTestRefs adds the analyzer's -test-refs value for the module of dir
// (ondisk.TestRefsArg) to a standalone run's args, unless they give it. Under go
// vet, for -flags and -V, args are returned unchanged (go vet loads the
// test files: the analyzer sees their calls itself).
func withTestRefs(args []string, dir string) []string {
	return withDiskFlag(args, "test-refs", func() string { return ondisk.TestRefsArg(dir) })
}

// withDiskFlag prepends -name=value() to a standalone run's args: a value
// the command found on disk for the analyzer, which reads no file outside
// its package. Under go vet (a .cfg argument), for -flags and -V, and when
// args give -name already, args are returned unchanged; so is an empty
// value.
func withDiskFlag(args []string, name string, value func() string) []string {
	for _, a := range args {
		flagName, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			if strings.HasSuffix(a, ".cfg") {
				return args
			}
		case flagName == "flags" || flagName == "V" || flagName == name:
			return args
		}
	}
	if v := value(); v != "" {
		return append([]string{"-" + name + "=" + v}, args...)
	}
	return args
}

// underVet reports whether go vet runs the command (a .cfg argument).
func underVet(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.HasSuffix(a, ".cfg") {
			return true
		}
	}
	return false
}
