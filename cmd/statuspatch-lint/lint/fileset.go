package lint

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// fileSet knows which files of the package are checked, and maps SSA call
// positions (the Lparen) back to the call expression.
type fileSet struct {
	fset  *token.FileSet
	skip  map[*token.File]bool
	calls map[token.Pos]*ast.CallExpr // by Lparen
	insp  *inspector.Inspector        // the package's syntax, for -fix's cursors
	once  *migrate.Once               // what -fix computes once per pass
	// applied answers -fix's question of an apply between a read and a
	// write from the lock's model (lockbasequery.go), once the writes are
	// found.
	applied    func(readFrom, readTo, at token.Pos) *migrate.Applied
	callWrites func(lparen token.Pos, arg int) string
}

// migrateFiles is what -fix (migrate.Fix) reads of the package's files.
func (fs *fileSet) migrateFiles() migrate.Files {
	return migrate.Files{Calls: fs.calls, Checked: fs.checked, Inspector: fs.insp, Once: fs.once, Applied: fs.applied, CallWrites: fs.callWrites}
}

func newFileSet(pass *analysis.Pass, cfg Config) *fileSet {
	fs := &fileSet{fset: pass.Fset, skip: map[*token.File]bool{}, calls: map[token.Pos]*ast.CallExpr{}, insp: inspector.New(pass.Files), once: migrate.NewOnce()}
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
				fs.calls[call.Lparen] = call
			}
			return true
		})
	}
	return fs
}

func (fs *fileSet) callPos(lparen token.Pos) token.Pos {
	if call, ok := fs.calls[lparen]; ok {
		return call.Pos()
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

// unstructuredKinds gives an apply of an unstructured object the kind its
// setters give it in the function (migrate.UnstructuredKind), so that the
// finding names the kind's patcher and -fix moves it.
func unstructuredKinds(pass *analysis.Pass, files *fileSet, ws []*write) {
	for _, w := range ws {
		call := files.calls[w.pos]
		if w.generated || call == nil || (w.verb != "Apply" && w.verb != "Patch") {
			continue
		}
		if name, pkg, why, ok := migrate.UnstructuredKind(pass, files.insp, call); ok {
			w.kind = kind{name: name, pkg: pkg}
		} else {
			w.kindWhy = why
		}
	}
}

// migrateWrites gives -fix's migration (package migrate) the status
// writes as it sees them, each with its kind's generated patcher, and
// where the object is made when it is written unread (unread.go).
func migrateWrites(pass *analysis.Pass, cfg Config, cl *classifier, ws []*write) []*migrate.Write {
	mws := make([]*migrate.Write, len(ws))
	for i, w := range ws {
		mw := &migrate.Write{
			Lparen: w.pos, Verb: w.verb, Kind: w.kind.name, Generated: w.generated,
			Movable: !w.generated && !w.kind.iface && (w.via == viaStatus || w.via == viaSubResource),
		}
		if mw.Movable {
			if p, ok := findPatcherIn(pass, w.kind, cfg.patchers); ok {
				mw.Patcher = &migrate.Patcher{Type: p.Type, Pkg: p.Pkg, Into: p.Into}
			}
			if a := cl.unread(w); a != nil {
				mw.Unread = a.Pos()
			}
		}
		mws[i] = mw
	}
	return mws
}
