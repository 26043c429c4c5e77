package lint

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

const (
	clientPkgPath  = "sigs.k8s.io/controller-runtime/pkg/client"
	patcherPkgPath = "github.com/statuspatch/statuspatch/patcher"
)

const doc = `report handwritten status writes; audit their optimistic lock

statuspatch reports writes to the status subresource (Status().Patch/Update/
Apply/Create and SubResource("status").*) made by hand through a
controller-runtime client, and names the generated <Kind>StatusPatcher to use
instead. With -audit it reports every status write with a verdict:
optimistic, blind or unresolved. A "//statuspatch:allow <reason>" comment on
the line or the line above allows a write.`

// Config selects what an Analyzer made by NewAnalyzer reports.
type Config struct {
	// Audit reports every status write, handwritten or through a
	// generated patcher, with a verdict: optimistic, blind or unresolved.
	Audit bool
	// Tests also checks _test.go files.
	Tests bool
}

// Analyzer is the statuspatch analyzer with its configuration bound to
// its flags, -audit and -tests, for singlechecker and go vet.
var Analyzer = newFlagAnalyzer()

// NewAnalyzer returns a statuspatch analyzer with a fixed configuration
// and no flags, for drivers such as golangci-lint that configure each
// instance separately.
func NewAnalyzer(cfg Config) *analysis.Analyzer {
	c := cfg
	return newAnalyzer(&c)
}

func newFlagAnalyzer() *analysis.Analyzer {
	cfg := new(Config)
	a := newAnalyzer(cfg)
	a.Flags.BoolVar(&cfg.Audit, "audit", false,
		"report every status write with a verdict (optimistic, blind, unresolved)")
	a.Flags.BoolVar(&cfg.Tests, "tests", false,
		"also check _test.go files (the packages must be loaded with their tests)")
	return a
}

func newAnalyzer(cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "statuspatch",
		Doc:       doc,
		URL:       "https://pkg.go.dev/github.com/statuspatch/statuspatch/lint",
		FactTypes: []analysis.Fact{new(patchersFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			return nil, run(pass, *cfg)
		},
	}
}

func run(pass *analysis.Pass, cfg Config) error {
	exportPatchers(pass)
	if isPatcherRuntime(pass.Pkg.Path()) || !reachesClient(pass.Pkg) {
		return nil
	}
	// Drivers print diagnostics in the order they are reported, and SSA
	// visits blocks and closures out of source order: sort by position.
	var diags []analysis.Diagnostic
	report := func(pos token.Pos, msg string) {
		diags = append(diags, analysis.Diagnostic{Pos: pos, Message: msg})
	}
	defer func() {
		sort.SliceStable(diags, func(i, j int) bool { return diags[i].Pos < diags[j].Pos })
		for _, d := range diags {
			pass.Report(d)
		}
	}()

	files := newFileSet(pass, cfg)
	allow := collectDirectives(pass, files, report)
	funcs := buildSSA(pass)
	t := newTracer(pass.Pkg, funcs)
	for _, w := range findWrites(t, funcs, cfg.Audit) {
		pos := files.callPos(w.pos)
		if !files.checked(pos) {
			continue
		}
		d, allowed := allow.at(pass.Fset.Position(pos))
		if cfg.Audit {
			v := classify(t, w)
			msg := v.verdict.String() + ": " + w.label() + " of " + w.kind.name + ": " + v.reason
			if allowed {
				msg += " (allowed: " + d.reason + ")"
			}
			report(pos, msg)
			continue
		}
		if allowed || w.generated {
			continue
		}
		report(pos, handwrittenMessage(pass, w.kind))
	}
	return nil
}

func isPatcherRuntime(path string) bool {
	return path == patcherPkgPath || strings.HasPrefix(path, patcherPkgPath+"/")
}

// fileSet knows which files of the package are checked, and maps SSA call
// positions (the Lparen) back to the start of the call expression.
type fileSet struct {
	fset    *token.FileSet
	skip    map[*token.File]bool
	lparens map[token.Pos]token.Pos
}

func newFileSet(pass *analysis.Pass, cfg Config) *fileSet {
	fs := &fileSet{fset: pass.Fset, skip: map[*token.File]bool{}, lparens: map[token.Pos]token.Pos{}}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		if ast.IsGenerated(f) || (!cfg.Tests && strings.HasSuffix(tf.Name(), "_test.go")) {
			fs.skip[tf] = true
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				fs.lparens[call.Lparen] = call.Pos()
			}
			return true
		})
	}
	return fs
}

func (fs *fileSet) callPos(lparen token.Pos) token.Pos {
	if p, ok := fs.lparens[lparen]; ok {
		return p
	}
	return lparen
}

func (fs *fileSet) checked(pos token.Pos) bool {
	if !pos.IsValid() {
		return false
	}
	tf := fs.fset.File(pos)
	return tf != nil && !fs.skip[tf]
}
