package migrate

import (
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// The reasons -fix gives for a status write of a kind with a generated
// patcher whose shape it does not move: each names what the recognised
// shapes (docs/lint.md, "Moving writes onto the generated patchers") need
// and the write lacks, so a reader knows what to move by hand. They are
// the default mode's (a handwritten write to move): an audit's verdicts
// stay as they were.

// shapeWhy is why, or "" in an audit.
func (m *migration) shapeWhy(why string) string {
	if m.audit {
		return ""
	}
	return why
}

// findObj sets m.obj, the written object, or leaves it nil and returns
// why the write's object is not one -fix can make a patcher from.
func (m *migration) findObj(kind string) string {
	arg := ast.Unparen(m.call.Args[1])
	id, ok := arg.(*ast.Ident)
	if !ok {
		return m.shapeWhy("the object " + types.ExprString(arg) + " is not a variable")
	}
	obj, ok := m.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || kube.NamedOf(obj.Type()) == nil || kube.NamedOf(obj.Type()).Obj().Name() != kind {
		return m.shapeWhy(id.Name + " is not a *" + kind + " variable")
	}
	if _, isPtr := types.Unalias(obj.Type()).(*types.Pointer); !isPtr {
		return m.shapeWhy(id.Name + " is not a pointer")
	}
	m.obj = obj
	return ""
}

// noGet says why an Update has no anchor: its object is not read with
// Get in the function before the write.
func (m *migration) noGet() string {
	if fn := m.paramOf(m.obj); fn != "" {
		return m.shapeWhy(m.obj.Name() + " is a parameter of " + fn + ": the patcher is made where its callers read it; move the write there")
	}
	return m.shapeWhy(m.obj.Name() + " is not read with Get in this function before the write: where its status changes start is not seen; make New" + m.patcherType + " there and call its Flush(ctx) here")
}

// noBase says why a Patch whose base (or patch) variable v has no
// definition of the recognised shape in the function has no anchor.
func (m *migration) noBase(v *types.Var, what, want string) string {
	if v == nil {
		return m.shapeWhy("the " + what + " is not a variable of this function")
	}
	if fn := m.paramOf(v); fn != "" {
		return m.shapeWhy("the " + what + " " + v.Name() + " is a parameter of " + fn + ": the patcher is made where its callers take it; move the write there")
	}
	return m.shapeWhy("the " + what + " " + v.Name() + " is not " + want + " taken in this function")
}
