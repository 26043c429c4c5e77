package scaffold

import (
	"go/ast"
	"go/token"
	"strings"
)

// clientPath is where a reconciler's Client field is: via, the structs it
// embeds by value on the way (outermost first); explicit when the promoted
// selector r.Client is ambiguous (another field Client at the same depth,
// others' paths), so init writes r.<via...>.Client.
type clientPath struct {
	via      []string
	explicit bool
	others   []string
	why      string // not found: why, when it is more than absent
}

// lhs is the field's selector on recv: recv.Client, or recv.Base.Client
// when the promoted name is ambiguous.
func (c clientPath) lhs(recv string) string {
	if !c.explicit {
		return recv + ".Client"
	}
	return recv + "." + strings.Join(append(append([]string{}, c.via...), "Client"), ".")
}

// clientField finds struct typeName's field Client as Go's selector rules
// do: the shallowest depth that has a field named Client, through the
// structs of structs it embeds (by value or pointer). The field must be
// controller-runtime's client.Client (embedded or named), which
// *patcher.Client can be assigned to, reached by value only (an embedded
// pointer may be nil when SetupWithManager runs). Two or more at that depth
// make r.Client ambiguous: the first of them that is such a field is the
// one init wires, through its explicit path, and the others are named.
func clientField(structs map[string]declaredStruct, typeName string) (clientPath, bool) {
	type node struct {
		name    string
		via     []string
		pointer bool // reached through an embedded pointer
	}
	type found struct {
		path    []string
		ok      bool
		pointer bool
	}
	level := []node{{name: typeName}}
	seen := map[string]bool{}
	for len(level) > 0 {
		var hits []found
		var next []node
		for _, n := range level {
			st, ok := structs[n.name]
			if !ok || seen[n.name] {
				continue
			}
			seen[n.name] = true
			for _, fl := range st.typ.Fields.List {
				t, pointer := fl.Type, false
				if star, ok := t.(*ast.StarExpr); ok {
					t, pointer = star.X, true
				}
				name := ""
				switch e := t.(type) {
				case *ast.Ident:
					name = e.Name
				case *ast.SelectorExpr:
					name = e.Sel.Name
				}
				if len(fl.Names) == 0 && name == "Client" || fieldNamed(fl, "Client") {
					sel, isSel := fl.Type.(*ast.SelectorExpr)
					isClient := isSel && st.client != "" && sel.Sel.Name == "Client"
					if isClient {
						x, ok := sel.X.(*ast.Ident)
						isClient = ok && x.Name == st.client
					}
					hits = append(hits, found{n.via, isClient && !n.pointer, n.pointer})
					continue
				}
				if id, ok := t.(*ast.Ident); ok && len(fl.Names) == 0 {
					next = append(next, node{id.Name, append(append([]string{}, n.via...), id.Name), n.pointer || pointer})
				}
			}
		}
		if len(hits) == 0 {
			level = next
			continue
		}
		var c clientPath
		picked := false
		for _, h := range hits {
			switch {
			case h.ok && !picked:
				c.via, picked = h.path, true
			default:
				c.others = append(c.others, strings.Join(append(append([]string{}, h.path...), "Client"), "."))
			}
		}
		c.explicit = len(hits) > 1
		if !picked && len(hits) == 1 && hits[0].pointer {
			c.why = typeName + "'s Client is promoted through an embedded pointer, which may be nil when SetupWithManager runs: set it (r." +
				strings.Join(append(append([]string{}, hits[0].path...), "Client"), ".") + ") after the pointer is set, by hand"
		}
		return c, picked
	}
	return clientPath{}, false
}

// fieldNamed says whether fl declares a field named name.
func fieldNamed(fl *ast.Field, name string) bool {
	for _, id := range fl.Names {
		if id.Name == name {
			return true
		}
	}
	return false
}

// clientSet is one statement of SetupWithManager that sets the
// reconciler's client: an assignment to it (r.Client = x, r.Base.Client =
// x) or of a composite literal holding it (r.Base = Base{Client: x},
// *r = CaptainReconciler{...}).
type clientSet struct {
	stmt ast.Stmt // the statement of the method's body it is in
	top  bool     // it is that statement, not under an if, a loop or a closure
	// val is the value the client gets; nil when a keyed literal leaves
	// it out (the client becomes nil); opaque when init cannot tell
	// (r.Base = newBase(mgr), a literal without keys).
	val    ast.Expr
	opaque bool
	at     ast.Node // the assignment, for its line
}

// clientSets lists body's sets of recv's client, which lies at via, in the
// order of the source.
func clientSets(body *ast.BlockStmt, recv string, via []string) []clientSet {
	var sets []clientSet
	for _, stmt := range body.List {
		ast.Inspect(stmt, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				s := clientSet{stmt: stmt, top: ast.Node(as) == ast.Node(stmt), at: as}
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Client" && viaChain(sel.X, recv, via) {
					s.val = as.Rhs[i]
					sets = append(sets, s)
					continue
				}
				depth, ok := chainDepth(l, recv, via)
				if !ok {
					continue
				}
				val, set, opaque := litClient(as.Rhs[i], via[depth:])
				if set {
					s.val, s.opaque = val, opaque
					sets = append(sets, s)
				}
			}
			return true
		})
	}
	return sets
}

// chainDepth says whether x is recv (or *recv) or recv followed by a head
// of via's names (r.Base where via is [Base Inner]), and how many.
func chainDepth(x ast.Expr, recv string, via []string) (int, bool) {
	if star, ok := x.(*ast.StarExpr); ok {
		x = star.X
		if id, ok := x.(*ast.Ident); ok && id.Name == recv {
			return 0, true
		}
		return 0, false
	}
	var names []string
	for {
		switch e := x.(type) {
		case *ast.Ident:
			if e.Name != recv || len(names) > len(via) || len(names) == 0 {
				return 0, false
			}
			for i, n := range names { // innermost first
				if via[len(names)-1-i] != n {
					return 0, false
				}
			}
			return len(names), true
		case *ast.SelectorExpr:
			names = append(names, e.Sel.Name)
			x = e.X
		default:
			return 0, false
		}
	}
}

// litClient is the value that e, assigned to a struct whose client lies at
// rest (the embedded structs' names, then Client), gives the client: set
// is false when e cannot hold it (not a struct value), val nil when a
// keyed literal leaves it out, opaque when init cannot tell (a call, a
// variable, a literal without keys).
func litClient(e ast.Expr, rest []string) (val ast.Expr, set, opaque bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return e, true, true
	}
	key := "Client"
	if len(rest) > 0 {
		key = rest[0]
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return lit, true, true
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == key {
			if len(rest) == 0 {
				return kv.Value, true, false
			}
			return litClient(kv.Value, rest[1:])
		}
	}
	return nil, true, false
}
