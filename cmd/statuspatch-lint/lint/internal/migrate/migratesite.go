package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// site is a status write's call at its place (place.go) and what follows
// the object from there: the references followed (refs), the calls that
// only read (readers), the text edits made there (text) and the state
// of the functions and values followed.
type site struct {
	place
	localDepth    int            // how many locals deep followLocal is, in the function followed (migratelocal.go)
	intoParams    []*types.Var   // the parameters followInto is in (migratelocal.go)
	paramsEntered int            // how many parameters followInto entered
	following     []*types.Func  // the package's functions checkCallee is in (migrateedit.go)
	compose       bool           // a helper's write of the object is the caller's, through its patcher (migratehelper.go)
	holding       *holding       // ParamsFact.Holds is being computed (paramsheld.go)
	keeping       []*types.Var   // the fields of other values whose holders are followed (lifekept.go)
	returning     *returning     // the package's function checkCallee checks, whose returned references its caller follows (migrateedit.go)
	litsFollowing []*ast.FuncLit // the function values' literals checkValues is in (refsfuncvalue.go)
	unsent        bool           // a status subresource write: changes outside the status are left unsent, as by the patcher made with WithNonStatusChangesUnsent (migrateunsent.go)
}

// refs follows the object, and the references into it, through the code
// of a function: what each use does with it (a change, a read, an alias
// or a hand-on to follow). Its methods live with what they follow:
// migratechange.go (the use), migratelocal.go (locals and parameters),
// migrateaddress.go (addresses), migrateliteral.go (literals and
// appends); what only reads is readers'.
type refs struct{ *site }

// readers says which calls only read the object or a reference into it,
// and so end what refs follows: encoders and printers
// (migratemarshal.go), calls that read references or copy out
// (migratereaders.go), another package's functions by their facts
// (params.go), apply configurations' setters (readersapply.go).
type readers struct{ *site }

// text makes the text edits at a site: names, imports, indentation and
// the statements deleted (migratetext.go).
type text struct{ *site }

// refs is the site's follower of references.
func (si *site) refs() refs { return refs{si} }

// readers is the site's judge of reading calls.
func (si *site) readers() readers { return readers{si} }

// text is the site's text editor.
func (si *site) text() text { return text{si} }

// statusChange says why the use at the top of stack may change the
// object's status: assigned, incremented, its address taken (useProblem
// allows that for a status write, which apply mode does not), or a
// reference into it handed on, by chainChange's rules (a function of the
// package followed into its parameter, meta.FindStatusCondition's result
// and locals followed); "" if it does not. Apply mode's Flush refuses a
// status changed in memory beside ApplyStatus.
func (si *site) statusChange(stack []ast.Node) string {
	top, changed := changedAt(stack, len(stack)-1)
	if e, ok := stack[top].(ast.Expr); ok && changed {
		return fmt.Sprintf("%s is changed at line %d: apply mode applies only the configuration", types.ExprString(e), si.pass.Fset.Position(e.Pos()).Line)
	}
	if _, how := si.refs().chainChange(stack, len(stack)-1); how != "" {
		return fmt.Sprintf("the status may be changed at %s: %s, and apply mode applies only the configuration", si.where(stack[len(stack)-1].Pos()), how)
	}
	return ""
}

// funcName names fn as the code of package from calls it: F, T.M, pkg.F or
// pkg.T.M.
func funcName(fn *types.Func, from *types.Package) string {
	name := fn.Name()
	if recv := fn.Signature().Recv(); recv != nil {
		if n := kube.NamedOf(recv.Type()); n != nil {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil && fn.Pkg() != from {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}
