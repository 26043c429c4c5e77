package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A merge write with a field owner (issue 72),
//
//	err := r.Status().Patch(ctx, obj, client.MergeFrom(base), client.FieldOwner("o"))
//
// (or r.Status().Update(ctx, obj, client.FieldOwner("o"))), moves like one
// without: the patcher is made with patcher.WithFieldOwner("o"), which its
// merge Flush sends (patcher/writer_merge.go). Any other option, or a
// second one, keeps the write: Flush takes none. The writes of an object
// in a function move together, so they must name one field owner (or
// none).

// A fieldOwner is a write's field owner, a merge write's (mergeOwner) or
// an apply's (applyOwner): client.FieldOwner's argument, or a value of
// that type (typed: a constant or variable, passed as string(owner)). Its
// zero value is none.
type fieldOwner struct {
	expr  ast.Expr
	typed bool
}

// text is the field owner as the string patcher.WithFieldOwner takes.
func (o fieldOwner) text() string {
	if o.typed {
		return "string(" + types.ExprString(o.expr) + ")"
	}
	return types.ExprString(o.expr)
}

// name is the field owner as written for the reasons, or "none".
func (o fieldOwner) name() string {
	if o.expr == nil {
		return "none"
	}
	return o.text()
}

// applyOwner returns the field owner of the apply's options, the call's
// arguments from the index from on, or why they are not the ones apply mode
// takes: client.FieldOwner and client.ForceOwnership, which apply mode
// always sends.
func (si *site) applyOwner(from int) (owner fieldOwner, why string) {
	if si.call.Ellipsis.IsValid() {
		return owner, "the apply's options are spread from a slice"
	}
	force := false
	for _, a := range si.call.Args[from:] {
		if o, ok := si.fieldOwnerArg(a); ok {
			owner = o
			continue
		}
		if si.isClientVar(a, "ForceOwnership") {
			force = true
			continue
		}
		return fieldOwner{}, "the apply has the option " + types.ExprString(a) + ": apply mode takes only client.FieldOwner and client.ForceOwnership"
	}
	switch {
	case owner.expr == nil:
		return fieldOwner{}, "the apply names no client.FieldOwner: apply mode needs the field owner (patcher.WithFieldOwner); move it by hand"
	case !force:
		return fieldOwner{}, "the apply does not force ownership (client.ForceOwnership), and apply mode does: move it by hand if taking the fields from other managers is what you want"
	}
	return owner, ""
}

// fieldOwnerArg returns the field owner an option a names: the argument
// of client.FieldOwner(x), or a value of type client.FieldOwner (typed:
// const fieldOwner client.FieldOwner = "..."); false for any other
// option.
func (si *site) fieldOwnerArg(a ast.Expr) (fieldOwner, bool) {
	if c, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(c.Args) == 1 && si.isClientType(c.Fun, "FieldOwner") {
		return fieldOwner{expr: c.Args[0]}, true
	}
	if n := kube.NamedOf(si.pass.TypesInfo.TypeOf(a)); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kube.ClientPkgPath && n.Obj().Name() == "FieldOwner" {
		return fieldOwner{expr: a, typed: true}, true
	}
	return fieldOwner{}, false
}

// mergeOwner sets m.owner from the write's options, the call's arguments
// from the index from on, or returns why they are not the lone field
// owner a merge Flush sends.
func (m *migration) mergeOwner(from int) string {
	const only = ": Flush takes no write options, only a field owner (client.FieldOwner, given to the patcher as patcher.WithFieldOwner)"
	switch {
	case m.call.Ellipsis.IsValid():
		return "the write's options are spread from a slice (" + types.ExprString(m.call.Args[len(m.call.Args)-1]) + "...)" + only
	case len(m.call.Args) > from+1:
		return "the write has several options" + only
	}
	a := m.call.Args[from]
	owner, ok := m.fieldOwnerArg(a)
	if !ok {
		return "the write has the option " + types.ExprString(a) + only
	}
	m.owner = owner
	return ""
}

// checkOwner says why m's field owner cannot go to the patcher: the move
// is into a helper's callers, or the owner uses a local declared after
// the read the patcher is made at.
func (m *migration) checkOwner() string {
	switch {
	case m.owner.expr == nil:
		return ""
	case m.helper != nil:
		return m.shapeWhy("the write has a field owner (client.FieldOwner), which -fix does not carry to the patchers of the helper's callers: make them with patcher.WithFieldOwner by hand")
	}
	return m.shapeWhy(m.declaredBefore(m.owner.expr, m.anchor.Pos()))
}

// groupOwners says why the writes of group cannot move together: they
// name different field owners, and a patcher sends one.
func groupOwners(m *migration, group []*migration) string {
	for _, g := range group {
		if g != m && g.owner.name() != m.owner.name() {
			return fmt.Sprintf("the status write of %s at line %d has the field owner %s, this one %s: the writes of %s in this function move together, and a patcher sends one field owner (patcher.WithFieldOwner)",
				m.obj.Name(), m.pass.Fset.Position(g.call.Pos()).Line, g.owner.name(), m.owner.name(), m.obj.Name())
		}
	}
	return ""
}
