package generator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// The expressions equalFuncs writes for each kind of type: == for scalars,
// a generated function where it can go field by field, == then
// patcher.DeepEqual where == is exact but the fields are out of reach, and
// patcher.DeepEqual alone where == could panic or does not compile, for a
// file generated into another package than the types'.
func TestEqualExpressions(t *testing.T) {
	const src = `package p
type Phase string
type Open struct{ A string; B []int }
type Closed struct{ a int; B string }
type WithIface struct{ x any }
type Node struct{ Name string; Next *Node }
type S struct {
	Phase   Phase
	Open    Open
	Closed  Closed
	Iface   WithIface
	Any     any
	Node    *Node
	Counts  map[string][]int32
	Missing undeclared.Type
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Error: func(error) {}} // undeclared.Type stays invalid, as for a package not loaded
	pkg, _ := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	st := pkg.Scope().Lookup("S").Type().Underlying().(*types.Struct)
	// Generated into another package (output:dir), which imports p as p.
	e := newEqualFuncs("example.com/out", func(*types.Package) string { return "p" }, "patcher", nil)
	want := map[string]string{
		"Phase":   "b.Phase == c.Phase",
		"Open":    "equalPOpen(&b.Open, &c.Open)",
		"Closed":  "(b.Closed == c.Closed || patcher.DeepEqual(&b.Closed, &c.Closed))",
		"Iface":   "patcher.DeepEqual(&b.Iface, &c.Iface)",
		"Any":     "patcher.DeepEqual(&b.Any, &c.Any)",
		"Node":    "equalPtrPNode(&b.Node, &c.Node)",
		"Counts":  "equalMapStringSliceInt32(&b.Counts, &c.Counts)",
		"Missing": "patcher.DeepEqual(&b.Missing, &c.Missing)",
	}
	for i := range st.NumFields() {
		fd := st.Field(i)
		if got := e.equal(fd.Type(), "b."+fd.Name(), "c."+fd.Name()); got != want[fd.Name()] {
			t.Errorf("%s: %s, want %s", fd.Name(), got, want[fd.Name()])
		}
	}
	// The way back into Node is compared by patcher.DeepEqual, never by a
	// call that could recurse forever on a cycle.
	wantNode := "// equalPNode reports whether *a and *b are reflect.DeepEqual.\n" +
		"func equalPNode(a, b *p.Node) bool {\n\treturn a.Name == b.Name &&\n\t\t(a.Next == b.Next || patcher.DeepEqual(&a.Next, &b.Next))\n}\n"
	if !slices.Contains(e.sources(), wantNode) {
		t.Errorf("no equalPNode as wanted among\n%q", e.sources())
	}
}
