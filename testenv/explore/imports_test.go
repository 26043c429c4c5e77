package explore_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The explorer runs any reconciler; its test binary links nothing of the
// runtime module (patcher, patchertest). It then does not change when the
// runtime does, so go test's cache keeps the explorer's tests (a minute
// and a half of CPU) when only the runtime changed, at the workspace's
// line and at each older line of make test-compat. Tests of the explorer
// with the patcher live in testenv/internal/patcherit.
//
// The test reads what the binary links from statuspatch's modules: the
// explorer's files, its tests' among them, and the non-test files of each
// statuspatch package they import, transitively (read from this checkout:
// the explorer's module sits two folders below the repository's root).
func TestExploreTestsDoNotImportTheRuntime(t *testing.T) {
	const (
		repo    = "github.com/statuspatch/statuspatch"
		runtime = repo + "/"
	)
	linksRuntime := func(path string) bool {
		for _, pkg := range []string{"patcher", "patchertest"} {
			if path == runtime+pkg || strings.HasPrefix(path, runtime+pkg+"/") {
				return true
			}
		}
		return false
	}
	fset := token.NewFileSet()
	const explore = "testenv/explore"
	seen := map[string]bool{explore: true}
	pkgs := []string{explore} // statuspatch's packages, by their folder in the repository
	for len(pkgs) > 0 {
		pkg := pkgs[0]
		pkgs = pkgs[1:]
		// a dependency's tests are not linked
		for _, f := range parseDir(t, fset, filepath.Join("..", "..", filepath.FromSlash(pkg)), pkg == explore, parser.ImportsOnly) {
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(imp.Pos()), err)
				}
				if linksRuntime(path) {
					t.Errorf("%s: imports %s: the explorer's test binary would link the runtime, and every change to the runtime would run the explorer's tests again at every line; test the explorer with the patcher in testenv/internal/patcherit", fset.Position(imp.Pos()), path)
				}
				if !strings.HasPrefix(path, repo+"/") {
					continue
				}
				if rel := strings.TrimPrefix(path, repo+"/"); !seen[rel] {
					seen[rel] = true
					pkgs = append(pkgs, rel)
				}
			}
		}
	}
	if len(seen) < 3 {
		t.Errorf("read %d packages, want the explorer's and the ones it imports (explore/report, internal/testapi/v1, ...): is the module path right?", len(seen))
	}
}

// The explorer's layers: internal/served (the API served in process) sits
// below the explorer and reads the book only through its Book interface,
// so it imports no package of the explorer's module; internal/book (the
// book of versions and histories) knows nothing of steps, caches or the
// search, and reaches the explorer's invariants only through the callback
// New takes, so it imports none either; nor do internal/callsite (the
// operator's line that sent a write, and its audit), internal/progress
// (the search's progress lines), internal/seeded (explore.Source) and
// crinternals;
// internal/recmgr (the recording manager Scenario.Setup runs on) imports
// only crinternals and served, internal/schedule (a schedule's chosen
// steps and its seed) only the book, and internal/judge (the built-in
// invariants' table, their judges on records of their own, and a
// schedule's checks, which record what broke through the Trace the root
// gives them) only the book, schedule and steady (what became of a lost
// write's values in the steady state: written again, or ended with their
// object), which imports only the book, internal/search (the search over schedules, through the
// Runner the root implements) only schedule, and internal/informers (what
// a manager's informers may serve a cached read, and the cache model that
// chooses a read's version within it) only the book, served (the
// representations), recmgr (the field indexes) and reset (the leftovers
// the kinds' floors start from after a reset), never the trace its
// choices are recorded in (it has them through its Trace interface);
// internal/reset (the backends, the reset between schedules, the state
// hash) only the book; internal/faults (the crash points, the writes
// in flight, the fault phase's plan, a replay's comparison) only the book
// and schedule, never the run whose process it crashes; internal/queue
// (the run's work queue, what an object's event queues in it through the
// operator's predicates and handlers, and the lock of the clients' calls)
// only the book, schedule and recmgr (the watches Setup built);
// internal/outcome (what a search reports of a schedule: its steps,
// reads, writes, windows and bounds) only informers, for the windows;
// internal/intercept (the reconcilers' clients, each call sent to the
// run through its Handler) only crinternals and seeded; internal/setup
// (what the explorer reads of the scenario once: its kinds, Setup's
// controllers, the kinds read uncached, the Records) only informers,
// judge, recmgr and served; internal/violation (what a schedule broke,
// as the trace records it, and how its violations rank) only judge, for
// the severities, steady, for a lost write's restoration, outcome, for
// the write at fault, and report, whose order of violations it ranks
// by; internal/run (the
// run of one schedule: its steps, clients, crashes and trace, reading the
// search through its Explorer interface) sits above them all, the root's
// only below it: it imports the lower layers it runs on, never progress
// (the search's) nor the root, and none of them imports it. A file of
// these that reached back for the run, the step or the trace would show
// here before it became an import cycle.
func TestExploreLayers(t *testing.T) {
	const module = "github.com/statuspatch/statuspatch/testenv/explore"
	fset := token.NewFileSet()
	// below are the lower layers a layer may import.
	below := map[string]map[string]bool{
		"internal/recmgr":    {"internal/crinternals": true, "internal/served": true},
		"internal/schedule":  {"internal/book": true},
		"internal/judge":     {"internal/book": true, "internal/schedule": true, "internal/steady": true},
		"internal/steady":    {"internal/book": true},
		"internal/search":    {"internal/schedule": true},
		"internal/informers": {"internal/book": true, "internal/served": true, "internal/recmgr": true, "internal/reset": true},
		"internal/reset":     {"internal/book": true},
		"internal/faults":    {"internal/book": true, "internal/schedule": true},
		"internal/queue":     {"internal/book": true, "internal/schedule": true, "internal/recmgr": true},
		"internal/outcome":   {"internal/informers": true},
		"internal/intercept": {"internal/crinternals": true, "internal/seeded": true},
		"internal/setup":     {"internal/informers": true, "internal/judge": true, "internal/recmgr": true, "internal/served": true},
		"internal/violation": {"internal/judge": true, "internal/outcome": true, "internal/steady": true, "report": true},
		"internal/run": {"internal/book": true, "internal/callsite": true, "internal/crinternals": true, "internal/faults": true,
			"internal/informers": true, "internal/intercept": true, "internal/judge": true, "internal/outcome": true, "internal/queue": true,
			"internal/recmgr": true, "internal/reset": true, "internal/schedule": true, "internal/search": true, "internal/seeded": true,
			"internal/served": true, "internal/setup": true, "internal/steady": true, "internal/violation": true},
	}
	for _, dir := range []string{"internal/served", "internal/book", "internal/callsite", "internal/recmgr", "internal/progress", "internal/schedule", "internal/crinternals", "internal/judge", "internal/steady", "internal/search", "internal/informers", "internal/faults", "internal/seeded", "internal/reset", "internal/queue", "internal/outcome", "internal/intercept", "internal/setup", "internal/violation", "internal/run"} {
		for _, f := range parseDir(t, fset, filepath.FromSlash(dir), false, parser.ImportsOnly) {
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(imp.Pos()), err)
				}
				if (path == module || strings.HasPrefix(path, module+"/")) && !below[dir][strings.TrimPrefix(path, module+"/")] {
					t.Errorf("%s: imports %s: %s is a lower layer of the explorer and imports none of its packages but %v", fset.Position(imp.Pos()), path, dir, slices.Sorted(maps.Keys(below[dir])))
				}
			}
		}
	}
}

// The search over schedules (internal/search) runs a schedule only
// through the Runner the root implements, and the parallel search is
// the serial one on more workers: beside internal/schedule it imports
// the standard library alone, nothing of Kubernetes, controller-runtime
// or the run, so that no search of its own grows back in the root.
func TestExploreSearchImportsOnlyTheStandardLibrary(t *testing.T) {
	const schedule = "github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	fset := token.NewFileSet()
	for _, f := range parseDir(t, fset, filepath.FromSlash("internal/search"), false, parser.ImportsOnly) {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(imp.Pos()), err)
			}
			if first, _, _ := strings.Cut(path, "/"); path != schedule && strings.Contains(first, ".") {
				t.Errorf("%s: imports %s: internal/search imports only internal/schedule and the standard library; reach the run through search.Runner", fset.Position(imp.Pos()), path)
			}
		}
	}
}

// The explorer's receivers stay small enough to read (issue 82, style
// review step 2): no type of the explorer's packages declares more than
// 25 methods (versions had 28 and served.Process 26 before their split);
// and the run of a schedule (internal/run's Run) holds its concerns by
// name, embedding none: an embedded field would give it every method of
// the concern, which is how it had 104.
func TestExploreReceivers(t *testing.T) {
	const limit = 25
	fset := token.NewFileSet()
	counts := map[string]int{}
	for _, dir := range []string{".", "internal/served", "internal/book", "internal/callsite", "internal/recmgr", "internal/progress", "internal/schedule", "internal/crinternals", "internal/judge", "internal/steady", "internal/search", "internal/informers", "internal/faults", "internal/seeded", "internal/reset", "internal/queue", "internal/outcome", "internal/intercept", "internal/setup", "internal/violation", "internal/run", "report"} {
		for _, f := range parseDir(t, fset, filepath.FromSlash(dir), false, parser.SkipObjectResolution) {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil || len(d.Recv.List) == 0 {
						continue
					}
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						counts[f.Name.Name+"."+id.Name]++
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						ts, ok := spec.(*ast.TypeSpec)
						if !ok || f.Name.Name != "run" || ts.Name.Name != "Run" {
							continue
						}
						st, ok := ts.Type.(*ast.StructType)
						if !ok {
							t.Fatalf("%s: Run is not a struct", fset.Position(ts.Pos()))
						}
						for _, field := range st.Fields.List {
							if len(field.Names) > 0 {
								continue
							}
							t.Errorf("%s: Run embeds %s: name the field, so that r.x is Run's own", fset.Position(field.Pos()), types.ExprString(field.Type))
						}
					}
				}
			}
		}
	}
	if counts["run.Run"] == 0 || counts["explore.explorer"] == 0 {
		t.Fatalf("read no method of run.Run or explorer: is the test in the explorer's folder? %v", counts)
	}
	for typ, n := range counts {
		if n > limit {
			t.Errorf("%s declares %d methods, at most %d: split it by what it holds", typ, n, limit)
		}
	}
}

// parseDir parses the Go files of dir (its tests' too when tests is
// set) and fails the test when dir holds none.
func parseDir(t *testing.T, fset *token.FileSet, dir string, tests bool, mode parser.Mode) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("%s: no Go files: is the test in the explorer's folder, and is the folder still where this module's path says?", dir)
	}
	var files []*ast.File
	for _, name := range names {
		if !tests && strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, mode)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}
