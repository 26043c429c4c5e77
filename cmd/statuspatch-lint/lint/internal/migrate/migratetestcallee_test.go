package migrate_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
)

// calleeSrc is a module's package: a kind with generated copies, and
// functions a test hands an object of it to.
const calleeSrc = `package m

type Status struct{ Ready bool; Conditions []string }
type Spec struct{ Replicas *int }
type Kind struct {
	Spec   Spec
	Status Status
}

func (in *Kind) DeepCopyInto(out *Kind) { *out = *in; out.Status.Conditions = append([]string(nil), in.Status.Conditions...) }
func (in *Kind) DeepCopy() *Kind { out := new(Kind); in.DeepCopyInto(out); return out }

type Hook interface{ Touch(k *Kind) }

var kept *Spec

func Copies(k *Kind) { c := k.DeepCopy(); c.Status.Ready = true }
func KeepsSpec(k *Kind) { kept = &k.Spec }
func Sets(k *Kind) { alias := k; setReady(&alias.Status) }
func setReady(s *Status) { s.Ready = true }
func Appends(k *Kind) { k.Status.Conditions = append(k.Status.Conditions, "x") }
func Hooks(h Hook, k *Kind) { h.Touch(k) }
func Calls(f func(*Kind), k *Kind) { f(k) }
func Keeps(k *Kind) { ks = append(ks, k) }
func Into(k *Kind) { var c Kind; c.DeepCopyInto(k) }

var ks []*Kind

func test(k *Kind, h Hook) {
	Copies(k)
	KeepsSpec(k)
	Sets(k)
	Appends(k)
	Hooks(h, k)
	Calls(nil, k)
	Keeps(k)
	Into(k)
	k.DeepCopy()
	func(k *Kind) { k.Status.Ready = false }(k)
	Finds(k)
	Checks(k)
}

// FindReady stands for a function outside the module a getter by its
// name, whose result points into what it is given.
func FindReady(s *Status) *bool { return &s.Ready }
func Finds(k *Kind) { r := FindReady(&k.Status); *r = true }
func IsReady(s *Status) error { return nil }
func Checks(k *Kind) error { err := IsReady(&k.Status); return err }
`

// The judge follows the object through the bodies of the module
// (migratetestcallee.go): a copy, a reference into the spec pass; a
// status change, two calls deep through an alias, a status list's
// append, a generated DeepCopyInto into it, a literal's change keep,
// naming the line; an interface method, a function value and a
// reference kept where -fix does not follow keep, naming which; so does
// a change through the result of a function outside the module given a
// part of the status (until s102 its getter's name let it pass); an
// error it gives back is no reference into it.
func TestCallJudgeFollowsTheModulesBodies(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/m/m.go", calleeSrc, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("m", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	decls := map[*types.Func]*ast.FuncDecl{}
	var calls []*ast.CallExpr
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fd.Name.Name != "FindReady" && fd.Name.Name != "IsReady" { // outside the module
			decls[info.Defs[fd.Name].(*types.Func)] = fd
		}
		if fd.Name.Name == "test" {
			for _, s := range fd.Body.List {
				calls = append(calls, s.(*ast.ExprStmt).X.(*ast.CallExpr))
			}
		}
	}
	judge := migrate.NewCallJudge(fset, info, func(fn *types.Func) (*ast.FuncDecl, *types.Info) { return decls[fn], info })
	for i, want := range []struct {
		arg  int
		tail string
	}{
		{0, ""},
		{0, ""},
		{0, ", which sets s.Ready at m.go:20, through setReady at m.go:19"},
		{0, ", which sets k.Status.Conditions at m.go:21"},
		{1, ", which hands k to the interface method m.Hook.Touch, whose implementations -fix cannot follow, at m.go:22: it may change it"},
		{1, ", which hands k to a function value, whose body -fix cannot follow, at m.go:23: it may change it"},
		{0, ", which keeps k in ks at m.go:24, which -fix does not follow: it may change it"},
		{0, ", which sets *out at m.go:10, through c.DeepCopyInto at m.go:25"},
		{-1, ""},
		{0, ", which sets k.Status.Ready at m.go:39"},
		{0, ", which sets *r at m.go:47"},
		{0, ""},
	} {
		tail, known := judge(calls[i], want.arg)
		if !known || tail != want.tail {
			t.Errorf("%s: %q (known %v), want %q", types.ExprString(calls[i].Fun)[:min(20, len(types.ExprString(calls[i].Fun)))], tail, known, want.tail)
		}
	}
}
