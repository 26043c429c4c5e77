package exportdata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The export-data driver (the command's exportdriver.go) loads from
// source only the packages that can hold a status write or a fact, and
// every other dependency from the compiled export data in the go
// command's build cache, as go vet does. This file lists the packages and
// decides which are which.

// maxStale is how many dependencies missing from the build cache the
// export-data driver type-checks from source itself, one after the other:
// more, or more than half of them (an empty build cache, a dependency
// upgrade), and the command runs the full checker, which type-checks
// everything from source in parallel (in about a tenth of the time `go
// build` would take to compile it).
const maxStale = 200

// listedPkg is one package of `go list -deps -json`.
type listedPkg struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string
	ImportMap  map[string]string
	Module     *listedModule
	Standard   bool
	DepOnly    bool
	Export     string
	Error      *listedError
	DepsErrors []*listedError
}

type listedModule struct {
	Path, Version, Dir, GoMod, GoVersion string
	Main                                 bool
}

// loadPlan is what the export-data driver loads, and how.
type loadPlan struct {
	pkgs    map[string]*listedPkg // by import path
	roots   []string              // the packages the patterns match, in go list's order
	source  []string              // type-checked from source, dependencies first
	export  map[string]string     // import path -> export data file, for the others
	inSrc   map[string]bool
	stale   int // dependencies type-checked from source because the build cache lacks them
	reaches int // dependencies type-checked from source because they import the client
	helpers int // the others type-checked from source because they may hold object helpers (kube.HoldsObjectHelpers)
}

// ErrDecline is returned, wrapped, when the export-data driver cannot load
// the packages the way the full checker would: the command runs that
// checker instead.
var ErrDecline = errors.New("the export-data driver does not apply")

// StaleError is why planLoad declines when too many dependencies are not
// in the build cache (maxStale), wrapped with ErrDecline: the only decline
// that compiling them (Compile) lifts.
type StaleError struct{ N int }

func (e *StaleError) Error() string {
	return fmt.Sprintf("%d dependencies are not in the build cache", e.N)
}

// Compile compiles the patterns' packages and their dependencies into the
// build cache, as go build would: `go list -e -deps -export` without
// RefuseTool. It changes no go.mod or go.sum (go list does not), and a
// package that does not compile is no error here (-e): planLoad reports
// it after.
func Compile(patterns []string) error {
	cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-export", "-f={{.ImportPath}}", "--"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go list -export %s: %w: %s", strings.Join(patterns, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return nil
}

// goList runs `go list` with args, this command refusing to build
// (RefuseTool), and decodes its JSON stream. Its failure is an error
// wrapping ErrDecline: the full checker reports it as it always has.
func goList(args ...string) ([]*listedPkg, error) {
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), ToolexecEnv+"=1")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%w: go list: %w: %s", ErrDecline, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var pkgs []*listedPkg
	dec := json.NewDecoder(&out)
	for {
		p := new(listedPkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: decoding its output: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// planLoad lists the patterns' packages and their dependencies (without
// tests) and decides what to load from source: the patterns' packages,
// every dependency that imports the controller-runtime client directly or
// not (only those can declare generated patchers or functions returning a
// client.Patch, the analyzer's facts, or write a status), every other
// dependency whose functions may take an operator's objects
// (kube.HoldsObjectHelpers, and reaching kube.MetaPkgPath, where the
// objects' types come from: the analyzer exports their ParamsFacts, as the
// full checker does), and every dependency whose compiled form is not in
// the build cache. Every other
// dependency comes from its export data, which `go list -export` takes
// from the build cache: run with -toolexec=<this command> (RefuseTool), it
// compiles nothing, so a package not in the cache has no export data and
// is loaded from source, and an empty cache makes the command run the
// full checker (maxStale) instead of compiling every dependency, as go
// vet would.
func planLoad(patterns []string) (*loadPlan, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDecline, err)
	}
	if strings.ContainsAny(self, " \t'\"\\") {
		return nil, fmt.Errorf("%w: the command's path %q cannot be go list's -toolexec", ErrDecline, self)
	}
	// EmbedFiles: without it go list does not resolve a package's embed
	// patterns, and its action (and every one above it) is not the one in
	// the build cache.
	const fields = "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Imports,ImportMap,Module,Standard,DepOnly,Export,Error,DepsErrors,EmbedFiles"
	listed, err := goList(append([]string{"-e", "-deps", "-export", "-toolexec=" + self, fields, "--"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	plan := &loadPlan{pkgs: map[string]*listedPkg{}, inSrc: map[string]bool{}, export: map[string]string{}}
	for _, p := range listed {
		// A dependency not in the build cache (refused) is no error: the
		// package has no export data then and is loaded from source, as
		// after an edit of a package of the project that it imports.
		depErr := slices.IndexFunc(p.DepsErrors, notRefused)
		switch {
		case p.Error != nil && notRefused(p.Error):
			return nil, fmt.Errorf("%w: package %s: %s", ErrDecline, p.ImportPath, p.Error.Err)
		case depErr >= 0:
			return nil, fmt.Errorf("%w: package %s: %s", ErrDecline, p.ImportPath, p.DepsErrors[depErr].Err)
		case strings.Contains(p.ImportPath, " "):
			return nil, fmt.Errorf("%w: package variant %s", ErrDecline, p.ImportPath)
		}
		plan.pkgs[p.ImportPath] = p
		if !p.DepOnly {
			plan.roots = append(plan.roots, p.ImportPath)
		}
	}
	if len(plan.roots) == 0 {
		return nil, fmt.Errorf("%w: %s matched no packages", ErrDecline, strings.Join(patterns, " "))
	}
	reaches := plan.reach(kube.ClientPkgPath)
	reachesMeta := plan.reach(kube.MetaPkgPath)
	for _, p := range listed {
		switch {
		case !p.DepOnly || p.ImportPath == "unsafe":
		case reaches(p.ImportPath):
			plan.reaches++
		case kube.HoldsObjectHelpers(p.ImportPath) && reachesMeta(p.ImportPath):
			plan.helpers++ // the analyzer exports its facts (ParamsFact)
		case p.Export == "":
			plan.stale++
		default:
			continue
		}
		plan.inSrc[p.ImportPath] = true
	}
	for _, r := range plan.roots {
		plan.inSrc[r] = true
	}
	if plan.stale > maxStale || 2*plan.stale > len(listed) {
		return nil, fmt.Errorf("%w: %w", ErrDecline, &StaleError{N: plan.stale})
	}
	// go list -deps lists dependencies first: the order to type-check in.
	for _, p := range listed {
		if !plan.inSrc[p.ImportPath] {
			if p.Export != "" {
				plan.export[p.ImportPath] = p.Export
			}
			continue
		}
		if len(p.CgoFiles) > 0 {
			return nil, fmt.Errorf("%w: package %s uses cgo", ErrDecline, p.ImportPath)
		}
		plan.source = append(plan.source, p.ImportPath)
	}
	return plan, nil
}

// reach returns whether a listed package imports target, directly or
// not (go list -deps lists every package of the graph), memoised.
func (plan *loadPlan) reach(target string) func(path string) bool {
	memo := map[string]bool{}
	var reaches func(path string) bool
	reaches = func(path string) bool {
		if v, ok := memo[path]; ok {
			return v
		}
		memo[path] = path == target
		for _, imp := range plan.pkgs[path].Imports {
			if plan.pkgs[imp] != nil && reaches(imp) {
				memo[path] = true
				break
			}
		}
		return memo[path]
	}
	return reaches
}

// ToolexecEnv makes the command, run by go list as its -toolexec, refuse
// to run the build's tools (RefuseTool).
const ToolexecEnv = "STATUSPATCH_LINT_TOOLEXEC"

// listedError is a package error of go list's JSON.
type listedError struct{ Err string }

// notRefused reports whether e is an error other than RefuseTool's.
func notRefused(e *listedError) bool { return !strings.Contains(e.Err, refusal) }

// refusal is how RefuseTool says no, in go list's errors.
const refusal = "statuspatch-lint: not in the build cache"

// RefuseTool is the command as planLoad's -toolexec: it runs the tool
// (args[0]) only to say which it is (-V=full, and the C compiler's -###:
// the go command hashes their answers into its cache keys, so they must be
// the tool's), and refuses every build step: a package whose compiled form
// is not in the build cache gets an error instead of being compiled.
func RefuseTool(args []string) int {
	if len(args) == 0 {
		return 2
	}
	for _, a := range args[1:] {
		if a == "-V=full" || a == "-V" || a == "-###" {
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			var exit *exec.ExitError
			if err := cmd.Run(); errors.As(err, &exit) {
				return exit.ExitCode()
			} else if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			return 0
		}
	}
	fmt.Fprintln(os.Stderr, refusal)
	return 1
}

// goFiles are p's Go files, as absolute paths.
func (p *listedPkg) goFiles() []string {
	files := make([]string, len(p.GoFiles))
	for i, f := range p.GoFiles {
		files[i] = f
		if !strings.HasPrefix(f, string(os.PathSeparator)) {
			files[i] = p.Dir + string(os.PathSeparator) + f
		}
	}
	return files
}
