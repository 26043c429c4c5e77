package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/exportdata"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/fixfiles"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// driverEnv selects the standalone command's driver: unset, the
// export-data driver where it applies and the full checker otherwise;
// "checker", always the full checker (singlechecker: every dependency
// type-checked from source); "export", always the export-data driver
// (exit 1 with the reason where it does not apply), which then also
// prints how many packages it loaded from source (for tests).
const driverEnv = "STATUSPATCH_LINT_DRIVER"

// exportRun is a parsed standalone run for the export-data driver.
type exportRun struct {
	patterns []string
	fix      bool
	json     bool
	context  int
}

// parseExportArgs parses a standalone run's arguments (the checker's
// flags and the analyzer's, which it sets) for the export-data driver. An
// error wrapping exportdata.ErrDecline is a run it does not handle: test files
// loaded (-test, the checker's default, which the command turns off
// unless -tests), -diff, the checker's debugging and profiling flags,
// -flags, -V, -help.
func parseExportArgs(args []string) (*exportRun, error) {
	fs := flag.NewFlagSet("statuspatch-lint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	lint.Analyzer.Flags.VisitAll(func(f *flag.Flag) { fs.Var(f.Value, f.Name, f.Usage) })
	run := &exportRun{}
	test := fs.Bool("test", true, "")
	fs.BoolVar(&run.fix, "fix", false, "")
	fs.BoolVar(&run.json, "json", false, "")
	fs.IntVar(&run.context, "c", -1, "")
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("%w: %w", exportdata.ErrDecline, err)
	}
	if *test {
		return nil, fmt.Errorf("%w: test files are loaded (-test)", exportdata.ErrDecline)
	}
	run.patterns = fs.Args()
	if len(run.patterns) == 0 {
		return nil, fmt.Errorf("%w: no package patterns", exportdata.ErrDecline)
	}
	return run, nil
}

// runExportDriver runs the analyzer the way the checker would on args,
// loading only what can hold a status write from source (exportdata.Load). ok is
// false when it does not apply (the caller runs the checker); with
// STATUSPATCH_LINT_DRIVER=export that is exit status 1 instead.
func runExportDriver(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	run, graph, code, ok := exportAnalysis(args, stderr, false)
	if !ok || graph == nil {
		return code, ok
	}
	if run.fix {
		if err := fixfiles.ApplyFixes(graph); err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1, true
		}
		return 0, true
	}
	if run.json {
		if err := graph.PrintJSON(stdout); err != nil {
			return 1, true
		}
		return 0, true
	}
	if err := graph.PrintText(stderr, run.context); err != nil {
		return 1, true
	}
	// The checker's exit status: 1 when an analysis failed, 3 when there
	// are findings.
	code = 0
	for act := range graph.All() {
		if act.Err != nil {
			return 1, true
		}
		if act.IsRoot && len(act.Diagnostics) > 0 {
			code = 3
		}
	}
	return code, true
}

// exportAnalysis parses args and analyzes their packages with the
// export-data driver. ok is false when the driver does not apply; graph
// is nil when it failed (code says how, and it was printed), or declined
// under STATUSPATCH_LINT_DRIVER=export (code 1). With compile (-fix, which
// the per-package checker cannot do across packages), a decline only
// because dependencies are not in the build cache (exportdata.StaleError)
// compiles them (exportdata.Compile) and analyzes again.
func exportAnalysis(args []string, stderr io.Writer, compile bool) (run *exportRun, graph *checker.Graph, code int, ok bool) {
	mode := os.Getenv(driverEnv)
	if mode == "checker" {
		return nil, nil, 0, false
	}
	decline := func(err error) (*exportRun, *checker.Graph, int, bool) {
		if mode == "export" {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return nil, nil, 1, true
		}
		return nil, nil, 0, false
	}
	run, err := parseExportArgs(args)
	if err != nil {
		return decline(err)
	}
	graph, err = analyzeFromExport(run.patterns)
	var stale *exportdata.StaleError
	if compile && errors.As(err, &stale) {
		fmt.Fprintf(stderr, "statuspatch-lint: -fix: compiling %d dependencies into the build cache (once) to analyze the whole module\n", stale.N)
		if cerr := exportdata.Compile(run.patterns); cerr != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", cerr)
		} else {
			graph, err = analyzeFromExport(run.patterns)
		}
	}
	if err != nil {
		if errors.Is(err, exportdata.ErrDecline) {
			return decline(err)
		}
		fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
		return nil, nil, 1, true
	}
	return run, graph, 0, true
}

// fixInProcess is fixAndReport's listing and fixing with the export-data
// driver: one analysis, whose JSON lists the fixes (parseFixes) and whose
// graph applies them. done is false when the driver does not apply.
func fixInProcess(args []string, stderr io.Writer) (rep fixReport, code int, done bool) {
	_, graph, code, ok := exportAnalysis(args, stderr, true)
	if !ok || graph == nil {
		return fixReport{}, code, ok
	}
	var listed bytes.Buffer
	if err := graph.PrintJSON(&listed); err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: listing the fixes: %v\n", err)
		return fixReport{}, 1, true
	}
	rep, err := parseFixes(listed.Bytes())
	if err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: reading the findings: %v\n", err)
		return fixReport{}, 1, true
	}
	if err := fixfiles.ApplyFixes(graph); err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
		fmt.Fprintln(stderr, "statuspatch-lint: -fix failed (exit status 1); files may be partly fixed")
		return fixReport{}, 1, true
	}
	return rep, 0, true
}

// analyzeFromExport loads the patterns' packages (exportdata.Load) and
// runs the analyzer on them, and on their source-loaded dependencies for
// facts.
func analyzeFromExport(patterns []string) (*checker.Graph, error) {
	roots, stats, err := exportdata.Load(patterns)
	if err != nil {
		return nil, err
	}
	// The whole module in one graph: an exported helper's write moves
	// with its callers in other packages (lint.ResolveGroups).
	graph, err := checker.Analyze([]*analysis.Analyzer{lint.ModuleAnalyzer}, roots, nil)
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	lint.ResolveGroups(graph, func(pkg, name string, analyzed map[string]bool) string {
		return ondisk.UnseenCalls(".", pkg, name, analyzed)
	})
	// A helper the package's own tests call moves with their calls
	// (lint.ResolveTestCalls).
	lint.ResolveTestCalls(graph, ondisk.InPackageTests, ondisk.ModulePath("."))
	// An interface call the fixes assume runs only implementations that
	// change at most the status (lint.ResolveIfaceCalls).
	lint.ResolveIfaceCalls(graph, ondisk.ModulePath("."), func(name string, seen map[string]bool) string {
		return ondisk.UnseenMethods(".", name, seen)
	})
	if os.Getenv(driverEnv) == "export" {
		fmt.Fprintf(os.Stderr, "statuspatch-lint: export-data driver: %d packages from source (%d dependencies importing the client, %d that may hold object helpers, %d not in the build cache), the other %d from export data\n",
			stats.Source, stats.Reaches, stats.Helpers, stats.Stale, stats.Total-stats.Source)
	}
	return graph, nil
}
