package lint

import (
	"reflect"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
)

// Config selects what an Analyzer made by NewAnalyzer reports.
type Config struct {
	// Audit reports every status write, handwritten or through a
	// generated patcher, with a verdict: optimistic, blind or unresolved.
	Audit bool
	// CI makes the audit a gate: only blind and unresolved writes that no
	// directive allows are reported, so a driver exits non-zero only for
	// them. It implies Audit.
	CI bool
	// Tests also checks _test.go files.
	Tests bool
	// Patchers names generated patchers the package's imports do not
	// declare, comma-separated <object package>.<Kind>=<patcher package>
	// entries, each ending :into when the package declares
	// Fetch<Kind>StatusPatcherInto: the command finds them on disk (the module's
	// zz_generated.statuspatch.go files) and passes them, so the analyzer
	// reads no file outside its package.
	Patchers string
	// TestRefs lists, for each package whose test files were scanned, the
	// unexported functions and methods its in-package test files use:
	// comma-separated <package path>=<name>+<name>... entries (no names
	// after = for none). The command scans them on disk, so -fix may
	// change the signature of a helper that no test calls (docs/lint.md,
	// "Moving writes onto the generated patchers"); a package without an
	// entry was not scanned.
	TestRefs string
	// Module is set by a driver that analyzes every package of the module
	// in one graph and resolves the fix groups each package's Result
	// gives (ResolveGroups): an exported helper's write then moves with
	// its callers in other packages.
	Module bool
	// NonStatusKept is -nonstatus-unsent=false: -fix keeps a
	// Status().Update or Status().Patch whose object changes outside its
	// status before it. By default (false) such a write moves onto a
	// patcher made with patcher.WithNonStatusChangesUnsent(), which
	// leaves those changes unsent as the write did: a status subresource
	// write sends the status alone, and the object is then the server's
	// answer (migrateunsent.go).
	NonStatusKept bool

	patchers []patcherInfo // Patchers, parsed
}

// Analyzer is the statuspatch analyzer with its configuration bound to
// its flags, -audit, -ci and -tests, for singlechecker and go vet.
var Analyzer = newFlagAnalyzer()

// NewAnalyzer returns a statuspatch analyzer with a fixed configuration
// and no flags, for drivers such as golangci-lint that configure each
// instance separately.
func NewAnalyzer(cfg Config) *analysis.Analyzer {
	c := cfg
	return newAnalyzer(&c)
}

// flagConfig is Analyzer's configuration, which its flags set.
var flagConfig = new(Config)

// ModuleAnalyzer is Analyzer with Config.Module set, its flags
// Analyzer's: statuspatch-lint's export-data driver runs it on the whole
// module and resolves the fix groups (ResolveGroups).
var ModuleAnalyzer = newModuleAnalyzer()

func newModuleAnalyzer() *analysis.Analyzer {
	a := newAnalyzer(flagConfig)
	a.Run = func(pass *analysis.Pass) (any, error) {
		cfg := *flagConfig
		cfg.Module = true
		return run(pass, cfg)
	}
	return a
}

func newFlagAnalyzer() *analysis.Analyzer {
	cfg := flagConfig
	a := newAnalyzer(cfg)
	a.Flags.BoolVar(&cfg.Audit, "audit", false,
		"report every status write with a verdict (optimistic, blind, unresolved)")
	a.Flags.BoolVar(&cfg.CI, "ci", false,
		"audit as a CI gate: report only blind, unresolved and empty status writes not allowed by a directive (implies -audit)")
	a.Flags.StringVar(&cfg.TestRefs, "test-refs", "",
		"the unexported functions each package's in-package test files use, as <package path>=<name>+<name>,... (the standalone command scans them)")
	a.Flags.StringVar(&cfg.Patchers, "patchers", "",
		"generated patchers not imported by the package, as <object package>.<Kind>=<patcher package>[:into],... (:into: it declares Fetch<Kind>StatusPatcherInto; the standalone command finds them on disk)")
	a.Flags.BoolVar(&cfg.Tests, "tests", false,
		"also check _test.go files (the packages must be loaded with their tests)")
	a.Flags.Var(notFlag{&cfg.NonStatusKept}, "nonstatus-unsent",
		"-fix: move a Status().Update or Status().Patch kept only because the object changes outside its status before it, onto a patcher made with patcher.WithNonStatusChangesUnsent(); -nonstatus-unsent=false keeps it")
	return a
}

func newAnalyzer(cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "statuspatch",
		Doc:        mustAnalyzerDoc("statuspatch"),
		URL:        "https://pkg.go.dev/github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint",
		FactTypes:  []analysis.Fact{new(patchersFact), new(patchFuncFact), new(migrate.ParamsFact), new(writeTokenFact), new(migrate.HelperFact), new(migrate.CallbackFact), new(readsFact)},
		ResultType: reflect.TypeFor[*Result](),
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, *cfg)
		},
	}
}
