package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"

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

// A fieldOwner is a write's field owner, a merge write's (writeOptions.merge)
// or an apply's (writeOptions.apply): client.FieldOwner's argument, or a value of
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

// phrase is the field owner for a reason: "the field owner o", or "no
// field owner".
func (o fieldOwner) phrase() string {
	if o.expr == nil {
		return "no field owner"
	}
	return "the field owner " + o.text()
}

// writeOptions are a write's options, its call's arguments from the
// index from on, read for the field owner they name.
type writeOptions struct {
	*calls
	call *ast.CallExpr
	from int
}

// optionsOf is the options of pl's call from the index from on.
func optionsOf(pl *place, from int) writeOptions {
	return writeOptions{calls: &pl.calls, call: pl.call, from: from}
}

// apply returns the field owner of the apply's options, or why they are not the ones apply mode
// takes: client.FieldOwner and client.ForceOwnership, which apply mode
// always sends.
func (o writeOptions) apply() (owner fieldOwner, why string) {
	if o.call.Ellipsis.IsValid() {
		return owner, "the apply's options are spread from a slice"
	}
	force := false
	for _, a := range o.call.Args[o.from:] {
		if named, ok := o.ownerArg(a); ok {
			owner = named
			continue
		}
		if o.isClientVar(a, "ForceOwnership") {
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

// ownerArg returns the field owner an option a names: the argument
// of client.FieldOwner(x), or a value of type client.FieldOwner (typed:
// const fieldOwner client.FieldOwner = "..."); false for any other
// option.
func (o writeOptions) ownerArg(a ast.Expr) (fieldOwner, bool) {
	if c, ok := ast.Unparen(a).(*ast.CallExpr); ok && len(c.Args) == 1 && o.isClientType(c.Fun, "FieldOwner") {
		return fieldOwner{expr: c.Args[0]}, true
	}
	if n := kube.NamedOf(o.pass.TypesInfo.TypeOf(a)); n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == kube.ClientPkgPath && n.Obj().Name() == "FieldOwner" {
		return fieldOwner{expr: a, typed: true}, true
	}
	return fieldOwner{}, false
}

// merge returns the write's lone field owner, which a merge Flush sends,
// or why its options are not that.
func (o writeOptions) merge() (fieldOwner, string) {
	const only = ": Flush takes no write options, only a field owner (client.FieldOwner, given to the patcher as patcher.WithFieldOwner)"
	switch {
	case o.call.Ellipsis.IsValid():
		return fieldOwner{}, "the write's options are spread from a slice (" + types.ExprString(o.call.Args[len(o.call.Args)-1]) + "...)" + only
	case len(o.call.Args) > o.from+1:
		return fieldOwner{}, "the write has several options" + only
	}
	a := o.call.Args[o.from]
	owner, ok := o.ownerArg(a)
	if !ok {
		return fieldOwner{}, "the write has the option " + types.ExprString(a) + only
	}
	return owner, ""
}

// checkOwner says why the migration's field owner cannot go to the
// patcher: the owner uses a local declared after the read the patcher is
// made at, or, in a helper whose callers make the patcher (issue 80), it
// is not one they can name (a literal, a constant or variable of the
// package), or the helper is exported (its callers in other packages make
// their patchers from its HelperFact, which carries no owner).
func (r *recognition) checkOwner() string {
	m := r.m
	switch {
	case m.owner.expr == nil:
		return ""
	case m.helper != nil && m.helper.decl != nil && token.IsExported(m.helper.decl.Name.Name):
		return m.shapeWhy(fmt.Sprintf("the write has the field owner %s, and %s is exported: -fix does not carry a field owner to the patchers of callers in other packages; make them with patcher.WithFieldOwner(%s) by hand", m.owner.text(), m.helper.decl.Name.Name, m.owner.text()))
	case m.helper != nil:
		if why := ownerPackageLevel(m.pass, m.owner); why != "" {
			return m.shapeWhy("the write's " + why)
		}
		return ""
	}
	return m.shapeWhy(m.declaredBefore(m.owner.expr, m.anchor.Pos()))
}

// ownerPackageLevel says why the field owner is not built from literals
// and constants or variables declared at the package's level, which a
// helper's callers make their patchers with.
func ownerPackageLevel(pass *analysis.Pass, owner fieldOwner) string {
	why := ""
	ast.Inspect(owner.expr, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit, *ast.ParenExpr, *ast.BinaryExpr:
			return why == ""
		case *ast.Ident:
			if o := pass.TypesInfo.Uses[n]; o == nil || o.Parent() != pass.Pkg.Scope() {
				why = "field owner " + types.ExprString(owner.expr) + " uses " + n.Name + ", not a constant or variable of the package: the callers make the patcher with it"
			} else if at := packageVarSet(pass, o); at.IsValid() {
				why = fmt.Sprintf("field owner %s uses the package variable %s, set at line %d: the callers make the patcher with it, before this write, and might send another value", types.ExprString(owner.expr), n.Name, pass.Fset.Position(at).Line)
			}
			return false
		case nil:
			return false
		}
		why = "field owner " + types.ExprString(owner.expr) + " is not a literal or a constant or variable of the package: the callers make the patcher with it"
		return false
	})
	return why
}

// ownerShadowed says which name of the helper's field owner is another
// where caller c makes the patcher, after its anchor.
func ownerShadowed(owner fieldOwner, c *migration) string {
	scope := c.pass.Pkg.Scope().Innermost(c.anchor.End())
	why := ""
	ast.Inspect(owner.expr, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && why == "" && scope != nil {
			if _, o := scope.LookupParent(id.Name, c.anchor.End()); o != c.pass.TypesInfo.Uses[id] {
				why = "the field owner's " + id.Name + " is another there"
			}
		}
		return why == ""
	})
	return why
}

// callerOwner says why caller c of h cannot make its patcher with h's
// field owner: a name of it is another there, or a write of another
// helper c hands the object to before, which takes the same patcher
// (moving), names another field owner.
func callerOwner(h *helperMove, c *migration, moving []*ast.CallExpr, files Files, ws []*Write, opts Options) string {
	line := c.pass.Fset.Position(c.call.Pos()).Line
	if h.owner.expr != nil {
		if why := ownerShadowed(h.owner, c); why != "" {
			return fmt.Sprintf("its caller at line %d would make the patcher with patcher.WithFieldOwner(%s), where %s", line, h.owner.text(), why)
		}
	}
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || !slices.Contains(moving, call) {
			continue
		}
		if om, _, _ := prepareMigration(c.pass, files, opts, o); om != nil && om.owner.name() != h.owner.name() {
			return fmt.Sprintf("its caller at line %d passes the same patcher to the status write at line %d, which has %s, and this one %s: a patcher sends one field owner (patcher.WithFieldOwner)",
				line, c.pass.Fset.Position(call.Pos()).Line, om.owner.phrase(), h.owner.phrase())
		}
	}
	return ""
}

// sharedOwner says why a caller's own write at line at, whose patcher
// the helper would take, cannot carry the helper's write: another field
// owner (theirs, the caller's write's; ours, the helper's).
func sharedOwner(pass *analysis.Pass, files Files, opts Options, c *migration, o *Write, ours fieldOwner) string {
	om, _, _ := prepareMigration(pass, files, opts, o)
	if om == nil || om.owner.name() == ours.name() {
		return ""
	}
	return fmt.Sprintf("its caller at line %d also writes %s's status at line %d with %s, and this write has %s: the caller's patcher, which it would take, sends one field owner (patcher.WithFieldOwner)",
		pass.Fset.Position(c.call.Pos()).Line, c.obj.Name(), pass.Fset.Position(om.call.Pos()).Line, om.owner.phrase(), ours.phrase())
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

// packageVarSet is where a package variable o is assigned, incremented
// or has its address taken in the package, past its declaration; NoPos
// when it is not (or o is no variable).
func packageVarSet(pass *analysis.Pass, o types.Object) token.Pos {
	if _, ok := o.(*types.Var); !ok {
		return token.NoPos
	}
	at := token.NoPos
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				targets = n.Lhs
			case *ast.IncDecStmt:
				targets = []ast.Expr{n.X}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					targets = []ast.Expr{n.X}
				}
			}
			for _, e := range targets {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == o && !at.IsValid() {
					at = id.Pos()
				}
			}
			return !at.IsValid()
		})
	}
	return at
}
