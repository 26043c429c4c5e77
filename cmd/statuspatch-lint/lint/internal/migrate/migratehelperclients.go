package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// callerClients says why the calls of one caller (hc) that hand it the
// object cannot take the one patcher it makes: they, or the calls of
// another status helper of the package it hands the object to after its
// read, name two clients (r.Remote and r.Client), and one patcher writes
// through one. Calls that name one client two ways (r, and r.Client that
// r embeds) make the patcher with the text of the first of them in the
// caller, so that each helper's move writes the same declaration: at
// s95a's 422d8dc two helpers of one caller, one writing through r, one
// through r.Client, each made its own patcher there, two declarations of
// one name, code that does not compile; and one helper called with
// r.Remote and with r.Client wrote both through r.Remote.
func (h *helperMove) callerClients(hc *helperCaller, files Files, ws []*Write, opts Options) string {
	c := hc.calls[0]
	key := h.clientPathKey
	ours := key(hc.clients[0], hc.rests[0])
	first, firstText := c.call.Pos(), c.clientText
	for i, k := range hc.calls {
		if key(hc.clients[i], hc.rests[i]) != ours {
			return fmt.Sprintf("its calls at line %d and %d write through %s and %s: one patcher writes through one client",
				h.pass.Fset.Position(c.call.Pos()).Line, h.pass.Fset.Position(k.call.Pos()).Line, c.clientText, k.clientText)
		}
		if k.call.Pos() < first {
			first, firstText = k.call.Pos(), k.clientText
		}
	}
	fn := c.enclosingFunc()
	root, ok := c.cursor(fn)
	if !ok || c.anchor == nil {
		return ""
	}
	for _, o := range ws {
		oc, ok := files.Calls[o.Lparen]
		if !ok || oc == h.call {
			continue
		}
		om, _, _ := prepareMigration(h.pass, files, opts, o)
		if om == nil || om.helper == nil || om.helper.decl == h.decl || om.helper.apply != nil {
			continue
		}
		oh := om.helper
		index, recvRoot, rest, problem := oh.helperClient(oh.decl)
		if problem != "" {
			continue
		}
		for cur := range root.Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if call.Pos() < c.anchor.End() || !slices.ContainsFunc(call.Args, c.isObj) || c.funcDecl(kube.CalledFunc(c.pass, call)) != oh.decl {
				continue
			}
			var e ast.Expr
			if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); recvRoot && isSel {
				e = sel.X
			} else if !recvRoot && index < len(call.Args) {
				e = call.Args[index]
			}
			line := h.pass.Fset.Position(call.Pos()).Line
			e, erest, why := oh.callerClient(c, e, recvRoot, rest, line)
			if why != "" {
				continue
			}
			if key(e, erest) != ours {
				return fmt.Sprintf("its caller at line %d also hands %s to %s at line %d, whose status write goes through %s, not %s: one patcher writes through one client",
					h.pass.Fset.Position(c.call.Pos()).Line, c.obj.Name(), oh.decl.Name.Name, line, types.ExprString(e)+erest, c.clientText)
			}
			if call.Pos() < first {
				first, firstText = call.Pos(), types.ExprString(e)+erest
			}
		}
	}
	for _, k := range hc.calls {
		k.clientText = firstText // one declaration whichever helper's move makes it
	}
	return ""
}

// clientPathKey is clientKey of the client e followed by rest (".Client",
// ".c"), the embedded fields rest selects left out: r and r.Client, the
// client r embeds, are one client.
func (h *helperMove) clientPathKey(e ast.Expr, rest string) string {
	k, t := h.clientKey(e), h.pass.TypesInfo.TypeOf(e)
	for name := range strings.SplitSeq(strings.TrimPrefix(rest, "."), ".") {
		if name == "" {
			continue
		}
		var v *types.Var
		if t != nil {
			obj, _, _ := types.LookupFieldOrMethod(t, true, h.pass.Pkg, name)
			v, _ = obj.(*types.Var)
		}
		if v == nil || !v.Embedded() {
			k += "." + name
		}
		t = nil
		if v != nil {
			t = v.Type()
		}
	}
	return k
}

// builtReceiver is the composite literal a call's receiver e is: built
// in the call (&T{...}, T{...}), or a local of the caller declared as
// one and not assigned again; nil otherwise.
func (c *migration) builtReceiver(e ast.Expr) *ast.CompositeLit {
	lit := func(e ast.Expr) *ast.CompositeLit {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		l, _ := e.(*ast.CompositeLit)
		return l
	}
	if l := lit(e); l != nil {
		return l
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	v, _ := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v == nil {
		return nil
	}
	_, val := c.definition(v)
	if val == nil || lit(val) == nil {
		return nil
	}
	fn := c.enclosingFunc()
	for cur := range c.usesOf(fn, v, fn.Pos(), fn.End()) {
		if as, ok := cur.Parent().Node().(*ast.AssignStmt); ok && slices.Contains(as.Lhs, cur.Node().(ast.Expr)) {
			return nil // assigned again
		}
		if u, ok := cur.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			return nil // its address taken
		}
	}
	return lit(val)
}

// literalField is the value lit gives its struct's field name, by key or
// position, or nil.
func literalField(pass *analysis.Pass, lit *ast.CompositeLit, name string) ast.Expr {
	st, ok := types.Unalias(pass.TypesInfo.TypeOf(lit)).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == name {
				return kv.Value
			}
			continue
		}
		if i < st.NumFields() && st.Field(i).Name() == name {
			return e
		}
	}
	return nil
}
