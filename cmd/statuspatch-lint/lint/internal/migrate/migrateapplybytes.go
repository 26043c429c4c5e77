package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A server-side apply of the bytes json.Marshal makes from an apply
// configuration, through a client.Patch type of the project's own
// (trust-manager's applyBundleCondition):
//
//	ac := trustapiac.Bundle(bundle.Name).WithStatus(trustapiac.BundleStatus().WithConditions(condition))
//	encodedPatch, err := json.Marshal(ac)
//	if err != nil {
//		return fmt.Errorf("failed to marshal Bundle status patch: %w", err)
//	}
//	return r.Status().Patch(ctx, bundle, ssa_client.ApplyPatch{Patch: encodedPatch}, ssa_client.FieldManager, client.ForceOwnership)
//
// is the apply of ac: the patch's Type returns types.ApplyPatchType and
// its Data the field holding the bytes (their ParamsFact: Const,
// RecvField), the bytes are encoding/json's of ac (k8s.io's util/json
// Marshal is encoding/json's), and nothing else reads them. It moves as
// Status().Apply(ctx, ac, ...) does (migrateapply.go, and its helper
// route, migrateapplyhelper.go): ac's status to ApplyStatus, the write
// the Flush, under the same field owner and forced; the marshal and its
// error check go, with the json import when nothing else uses it. The
// object patched must be the one the patcher is made from: the write
// decodes the answer into it, as Flush does into the patcher's.

// bytesApply reads an apply patch of bytes of the module's own type.
type bytesApply struct{ *migration }

// jsonMarshals are the Marshal functions whose bytes are encoding/json's.
var jsonMarshals = map[string]bool{"encoding/json": true, "k8s.io/apimachinery/pkg/util/json": true}

// marshalled is the marshal of a configuration the apply's bytes come
// from: the statements that go when the apply moves.
type marshalled struct {
	stmt, check ast.Stmt        // data, err := json.Marshal(ac) and its if err != nil { return ... }
	imp         *ast.ImportSpec // the json import, when the marshal is its file's only use
}

// returnedRecvField returns F when fd is a method returning ([]byte,
// error) whose body is one return r.F, nil of its receiver r's field: a
// client.Patch's Data holding its bytes (trust-manager's ApplyPatch). ""
// otherwise.
func returnedRecvField(pass *analysis.Pass, fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 || len(fd.Body.List) != 1 {
		return ""
	}
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return ""
	}
	res := fn.Signature().Results()
	if res.Len() != 2 || !isBytes(res.At(0).Type()) || res.At(1).Type().String() != "error" {
		return ""
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 2 {
		return ""
	}
	if id, ok := ret.Results[1].(*ast.Ident); !ok || pass.TypesInfo.Uses[id] != types.Universe.Lookup("nil") {
		return ""
	}
	sel, ok := ret.Results[0].(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	recv, ok := sel.X.(*ast.Ident)
	if s := pass.TypesInfo.Selections[sel]; !ok || s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 ||
		pass.TypesInfo.Uses[recv] != pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]] {
		return ""
	}
	return sel.Sel.Name
}

// isBytes reports whether t is []byte.
func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && types.Identical(s.Elem(), types.Typ[types.Byte])
}

// recogniseBytesApply recognises a Patch of an apply of bytes: one whose
// object a call returns with its patch stays (builtObjectWhy,
// migrateapplybuilt.go); one of marshalled configuration moves onto apply
// mode as its configuration's apply does.
func recogniseBytesApply(r *recognition) (*applyMove, string, bool) {
	if r.w.Verb != "Patch" {
		return nil, "", false
	}
	if why := (builtPatch{r.m}).builtObjectWhy(r.w.Kind); why != "" {
		r.stay(why)
		return nil, why, true
	}
	b := bytesApply{r.m}
	data := b.applyBytes()
	if data == nil {
		return nil, "", false
	}
	return r.applied(b.prepareBytesApply(r.w.Kind, data))
}

// applyBytes returns the variable of the bytes the write's patch holds
// when the patch is a literal of a type of its own whose Type returns
// types.ApplyPatchType and whose Data returns the field the literal
// gives them in; nil for another patch.
func (m bytesApply) applyBytes() *types.Var {
	if len(m.call.Args) < 3 {
		return nil
	}
	lit := typedLiteral(m.call.Args[2])
	if lit == nil || len(lit.Elts) != 1 {
		return nil
	}
	t := m.pass.TypesInfo.TypeOf(lit)
	n := kube.NamedOf(t)
	st, ok := t.Underlying().(*types.Struct)
	if n == nil || !ok || n.Obj().Pkg() == nil || strings.HasPrefix(n.Obj().Pkg().Path(), "sigs.k8s.io/controller-runtime/") {
		return nil
	}
	field, val := "", lit.Elts[0]
	switch e := val.(type) {
	case *ast.KeyValueExpr:
		k, _ := e.Key.(*ast.Ident)
		if k == nil {
			return nil
		}
		field, val = k.Name, e.Value
	default:
		if st.NumFields() != 1 {
			return nil
		}
		field = st.Field(0).Name()
	}
	if m.methodFact(t, n, "Type").Const != applyPatchType || m.methodFact(t, n, "Data").RecvField != field {
		return nil
	}
	id, ok := ast.Unparen(val).(*ast.Ident)
	if !ok {
		return nil
	}
	return usedVar(m.pass, id)
}

// methodFact is the ParamsFact of t's method name, empty when it has
// none.
func (m bytesApply) methodFact(t types.Type, n *types.Named, name string) ParamsFact {
	var fact ParamsFact
	if fn, ok := lookup(t, n, name).(*types.Func); ok {
		m.pass.ImportObjectFact(fn, &fact)
	}
	return fact
}

// lookup is t's field or method name, looked up from n's package.
func lookup(t types.Type, n *types.Named, name string) types.Object {
	o, _, _ := types.LookupFieldOrMethod(t, true, n.Obj().Pkg(), name)
	return o
}

// prepareBytesApply recognises the apply of data, the bytes of
// json.Marshal of a configuration of kind checked for its error just
// after, and sets m.obj, m.anchor and m.apply as the configuration's
// apply would, or returns why it cannot move.
func (m bytesApply) prepareBytesApply(kind string, data *types.Var) string {
	owner, why := optionsOf(&m.place, 3).apply()
	if why != "" {
		return m.shapeWhy(why)
	}
	mr, marshal, why := m.marshalOf(data)
	if why != "" {
		return m.shapeWhy(why)
	}
	ac := ast.Unparen(marshal.Args[0])
	if acKind, ok := kube.ApplyConfigKind(m.pass.TypesInfo.TypeOf(ac)); !ok || acKind != kind {
		return m.shapeWhy(fmt.Sprintf("the bytes %s are the JSON of %s (%s), not of a %sApplyConfiguration", data.Name(), types.ExprString(ac), m.where(marshal.Pos()), kind))
	}
	if f, _, _ := types.LookupFieldOrMethod(m.pass.TypesInfo.TypeOf(ac), true, m.pass.Pkg, "Status"); !isField(f) {
		return m.shapeWhy(kind + "ApplyConfiguration has no Status field to give to ApplyStatus")
	}
	root := m.configRoot(ac)
	if root == nil {
		return m.shapeWhy("the apply configuration " + types.ExprString(ac) + " is not built in this function by a constructor call (" + kind + "(name, namespace)...)")
	}
	named := kube.NamedBy(m.pass, root, kube.FetchedObjects(m.pass, root, kind))
	var name ast.Expr
	if len(root.Args) > 0 {
		name = root.Args[0]
	}
	if why := m.applyFrom(named, name, kind, "the apply configuration", ac, owner); why != "" {
		return why
	}
	obj := m.call.Args[1]
	if u, ok := ast.Unparen(obj).(*ast.UnaryExpr); ok && u.Op == token.AND {
		obj = u.X
	}
	if id, ok := ast.Unparen(obj).(*ast.Ident); !ok || usedVar(m.pass, id) != m.obj {
		return m.shapeWhy(fmt.Sprintf("the write patches %s, not %s, the %s the patcher is made from: the answer goes into the object patched, and Flush's into the patcher's", types.ExprString(m.call.Args[1]), m.obj.Name(), kind))
	}
	m.apply.marshal = mr
	return ""
}

// marshalOf finds data, err := json.Marshal(x) in a statement list
// around the write, checked by the if err != nil { ... return } just
// after it, data used only by the write and err only by that check. It
// returns the statements and the Marshal call, or why the bytes are not
// that.
func (m bytesApply) marshalOf(data *types.Var) (*marshalled, *ast.CallExpr, string) {
	for _, list := range m.enclosingLists() {
		for i, s := range list {
			as, ok := s.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 || !m.defines(as.Lhs[0], data) {
				continue
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			fn := kube.CalledFunc(m.pass, call)
			if !ok || fn == nil || fn.Pkg() == nil || !jsonMarshals[fn.Pkg().Path()] || fn.Name() != "Marshal" || len(call.Args) != 1 {
				return nil, nil, fmt.Sprintf("the bytes %s are not made by encoding/json's Marshal (%s)", data.Name(), m.where(as.Pos()))
			}
			mr := &marshalled{stmt: as}
			if why := m.marshalUses(data, as, list[i+1:], mr); why != "" {
				return nil, nil, why
			}
			mr.imp = m.onlyImportUse(call)
			return mr, call, ""
		}
	}
	return nil, nil, fmt.Sprintf("the bytes %s are not made by %s, err := json.Marshal(ac) in this function: -fix moves the apply of a configuration it marshals there", data.Name(), data.Name())
}

// marshalUses checks data is used only by the write, and the marshal's
// error only by the if err != nil that follows it (rest[0]), which ends
// in a return; it sets mr.check.
func (m bytesApply) marshalUses(data *types.Var, as *ast.AssignStmt, rest []ast.Stmt, mr *marshalled) string {
	fn := m.enclosingFunc()
	for c := range m.usesOf(fn, data, fn.Pos(), fn.End()) {
		if m.call.Pos() > c.Node().Pos() || c.Node().End() > m.call.End() {
			return fmt.Sprintf("the bytes %s are also used at %s: they would go with the marshal", data.Name(), m.where(c.Node().Pos()))
		}
	}
	errID, _ := as.Lhs[1].(*ast.Ident)
	if errID == nil || errID.Name == "_" {
		return ""
	}
	errV, _ := m.pass.TypesInfo.Defs[errID].(*types.Var)
	if errV == nil {
		return fmt.Sprintf("the marshal's error %s is declared before it (%s): -fix drops the marshal with its check only when it declares its error", errID.Name, m.where(as.Pos()))
	}
	var check *ast.IfStmt
	if len(rest) > 0 {
		check, _ = rest[0].(*ast.IfStmt)
	}
	if check == nil || check.Init != nil || check.Else != nil || !isNotNil(m.pass, check.Cond, errV) || !returnsOnly(check.Body.List) {
		return fmt.Sprintf("the marshal at %s is not followed by if %s != nil { ...; return }, which -fix drops with it", m.where(as.Pos()), errID.Name)
	}
	for c := range m.usesOf(fn, errV, fn.Pos(), fn.End()) {
		if c.Node().Pos() < check.Pos() || c.Node().End() > check.End() {
			return fmt.Sprintf("the marshal's error %s is also used at %s: it would go with the marshal", errID.Name, m.where(c.Node().Pos()))
		}
	}
	mr.check = check
	return ""
}

// onlyImportUse returns the import of call's package (json.Marshal) when
// call is its file's only use of it: the import goes with the marshal.
func (m bytesApply) onlyImportUse(call *ast.CallExpr) *ast.ImportSpec {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	x, _ := sel.X.(*ast.Ident)
	pn, _ := m.pass.TypesInfo.Uses[x].(*types.PkgName)
	if pn == nil {
		return nil
	}
	for c := range m.usesOf(m.file, pn, m.file.Pos(), m.file.End()) {
		if c.Node() != x {
			return nil
		}
	}
	for _, imp := range m.file.Imports {
		if m.pass.TypesInfo.PkgNameOf(imp) == pn {
			return imp
		}
	}
	return nil
}

// planBytesApply plans the apply of marshalled bytes as its
// configuration's (planApply), dropping the marshal, its check and,
// when nothing else uses it, the json import.
func planBytesApply(a *applyMove, p Patcher, files Files, ws []*Write, opts Options) (*analysis.SuggestedFix, string) {
	fix, why := planApply(a, p, files, ws, opts)
	if fix == nil || a.marshal == nil {
		return fix, why
	}
	mr := a.marshal
	last := mr.stmt
	if mr.check != nil {
		last = mr.check
	}
	tf := a.pass.Fset.File(mr.stmt.Pos())
	// Whole lines: the marshal's first to the check's last.
	from := tf.LineStart(tf.Line(mr.stmt.Pos()))
	to := last.End()
	if l := tf.Line(last.End()); l < tf.LineCount() {
		to = tf.LineStart(l + 1)
	}
	fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: from, End: to})
	if mr.imp != nil {
		fix.TextEdits = append(fix.TextEdits, importDrop(tf, a.file, mr.imp))
	}
	fix.Message += "; the marshal of the configuration dropped"
	return fix, ""
}

// importDrop deletes imp: its line in a parenthesized import (from the
// end of the line before, so that an import added after it stays
// apart), else its whole declaration.
func importDrop(tf *token.File, f *ast.File, imp *ast.ImportSpec) analysis.TextEdit {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Pos() > imp.Pos() || imp.End() > gd.End() {
			continue
		}
		if !gd.Lparen.IsValid() {
			return analysis.TextEdit{Pos: gd.Pos(), End: gd.End()}
		}
	}
	return analysis.TextEdit{Pos: tf.LineStart(tf.Line(imp.Pos())) - 1, End: imp.End()}
}
