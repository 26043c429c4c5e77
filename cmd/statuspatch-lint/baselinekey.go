package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// A baselineKey names one finding at a call, one per line of a baseline
// file:
//
//	<package path>/<file name> <TAB> <function> <TAB> <fingerprint>
//
// The function is the one holding the call (`(*R).Reconcile`, `one`, a
// closure `one$1`); the fingerprint hashes the call's source text, with a
// #n suffix for the n-th call of the same text in that function. It
// survives edits elsewhere in the file, unlike a line number, and the
// command computes it from the source alone, whatever the mode.
type baselineKey struct {
	file, function, fingerprint string
}

func (k baselineKey) String() string {
	return k.file + "\t" + k.function + "\t" + k.fingerprint
}

// fileCalls is a parsed file's calls with their keys.
type fileCalls struct {
	fset  *token.FileSet
	file  *ast.File
	calls []keyedCall // in source order
}

type keyedCall struct {
	call *ast.CallExpr
	key  baselineKey
}

// parseCalls parses filename (pkgFile is its "<package path>/<file name>")
// and keys every call in it.
func parseCalls(filename, pkgFile string) (*fileCalls, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("statuspatch baseline: %w", err)
	}
	fc := &fileCalls{fset: fset, file: f}
	seen := map[baselineKey]int{}
	var visit func(n ast.Node, fn string, lits *int)
	visit = func(n ast.Node, fn string, lits *int) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				*lits++
				inner := 0
				visit(n.Body, fmt.Sprintf("%s$%d", fn, *lits), &inner)
				return false
			case *ast.CallExpr:
				var text strings.Builder
				if err := printer.Fprint(&text, fset, n); err != nil {
					return true
				}
				sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text.String()), " ")))
				k := baselineKey{file: pkgFile, function: fn, fingerprint: hex.EncodeToString(sum[:6])}
				seen[k]++
				if c := seen[k]; c > 1 {
					k.fingerprint += fmt.Sprintf("#%d", c)
				}
				fc.calls = append(fc.calls, keyedCall{n, k})
			}
			return true
		})
	}
	initLits := 0
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			if fd.Body != nil {
				lits := 0
				visit(fd.Body, funcName(fd), &lits)
			}
			continue
		}
		visit(d, "init", &initLits)
	}
	return fc, nil
}

// funcName is a declared function's name as go/ssa spells it: `f`,
// `(T).M`, `(*T).M`.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	return "(" + star + name + ")." + fd.Name.Name
}

// at returns the key of the outermost call starting at line:col (a
// finding's position: calls chained in its callee start there too).
func (fc *fileCalls) at(line, col int) (baselineKey, bool) {
	var best *keyedCall
	for i, c := range fc.calls {
		p := fc.fset.Position(c.call.Pos())
		if p.Line != line || p.Column != col {
			continue
		}
		if best == nil || c.call.End() > best.call.End() {
			best = &fc.calls[i]
		}
	}
	if best == nil {
		return baselineKey{}, false
	}
	return best.key, true
}

// has reports whether a call of the file has the key.
func (fc *fileCalls) has(k baselineKey) bool {
	for _, c := range fc.calls {
		if c.key == k {
			return true
		}
	}
	return false
}

// packageClause is the position of the file's package clause.
func (fc *fileCalls) packageClause() token.Position {
	return fc.fset.Position(fc.file.Package)
}
