package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"
)

// split finds the mutate's status statements (ms.status), or says why
// moving them out of it would not make the same decision: a statement
// that changes the status and more (but an if, split in two: splitIf),
// a return before a status statement, a local one side declares and the
// other uses, a field a status statement reads that a later statement
// sets, the object handed to a function that may read or change its
// status.
func (ms *mutateStmts) split() string {
	list := ms.lit.Body.List
	if len(list) == 0 {
		return "the mutate has no statement"
	}
	if _, ok := list[len(list)-1].(*ast.ReturnStmt); !ok {
		return fmt.Sprintf("the mutate does not end with a return (%s)", ms.cs.where(list[len(list)-1].Pos()))
	}
	lastStatus := -1
	for i, s := range list[:len(list)-1] {
		ls, why := ms.leavesOf(s)
		if why != "" {
			return why
		}
		if slices.ContainsFunc(ls, func(l leaf) bool { return l.status }) {
			if why := ms.litChange(s); why != "" {
				return why
			}
			ms.status = append(ms.status, s)
			lastStatus = i
		}
		ms.leaves = append(ms.leaves, ls...)
	}
	if lastStatus < 0 {
		return "no statement of the mutate changes the status itself"
	}
	if why := ms.finalReturn(list[len(list)-1]); why != "" {
		return why
	}
	for _, s := range list[:lastStatus+1] {
		if ret := ms.returnIn(s); ret != nil {
			return fmt.Sprintf("%s returns before it, so it is not made on every run", ms.cs.where(ret.Pos()))
		}
	}
	if why := ms.aliasWhy(); why != "" {
		return why
	}
	for i, l := range ms.leaves {
		if !l.status && !l.cond {
			continue
		}
		for _, m := range laterLeaves(ms.leaves, i) {
			for _, f := range slices.Sorted(maps.Keys(l.reads)) {
				sets := slices.Sorted(maps.Keys(m.sets))
				if k := slices.IndexFunc(sets, func(g string) bool { return overlap(f, g) }); k >= 0 {
					return fmt.Sprintf("%s reads %s.%s, which %s sets after it", ms.cs.where(l.node.Pos()), ms.obj.Name(), strings.TrimPrefix(f, "ObjectMeta."), setter(ms.cs, m, sets[k]))
				}
			}
		}
	}
	return ms.locals()
}

// finalReturn takes the mutate's last statement, its return, which stays
// in the mutate, as a leaf staying: what it reads and hands is checked
// as any staying statement's (a status it reads, the object handed to a
// function, a local a moving statement declares), or says why it cannot
// stay.
func (ms *mutateStmts) finalReturn(ret ast.Stmt) string {
	ls, why := ms.leavesOf(ret)
	if why != "" {
		return why
	}
	if slices.ContainsFunc(ls, func(l leaf) bool { return l.status }) {
		return fmt.Sprintf("%s, the mutate's return, reads the status: it stays in the mutate, where it would read the status CreateOrPatch read, not the one decided after it", ms.cs.where(ret.Pos()))
	}
	ms.leaves = append(ms.leaves, ls...)
	return ""
}

// A leaf is a statement of the mutate that moves (status) or stays whole,
// or the condition of an if split in two (cond), which both halves read;
// what it reads and sets of the object outside the status, by field.
type leaf struct {
	node         ast.Node
	status, cond bool
	reads, sets  map[string]bool
	extra        []callee          // the literals it runs through locals (callees)
	via          map[string]callee // the callee setting a field of sets
	deferred     bool              // it defers a call, run as the mutate returns
}

// leavesOf is s as leaves: itself, or, for an if that changes the status
// and more, its condition and its body's leaves (splitIf).
func (ms *mutateStmts) leavesOf(s ast.Stmt) ([]leaf, string) {
	l := leaf{node: s, reads: map[string]bool{}, sets: map[string]bool{}, deferred: defers(ms.cs, s)}
	other, handed := "", ""
	for _, u := range ms.uses(s) {
		switch {
		case u.handed != "":
			handed = u.handed
		case u.field == "Status":
			l.status = true
		case u.sets:
			l.sets[u.field] = true
			other = u.field
		default:
			l.reads[u.field] = true
		}
	}
	name := ms.obj.Name()
	switch {
	case handed != "":
		return nil, fmt.Sprintf("%s hands %s to %s, which may read or change its status", ms.cs.where(s.Pos()), name, handed)
	case !l.status || other == "":
		if why := ms.addCallees(&l, s); why != "" {
			return nil, why
		}
		return []leaf{l}, ""
	}
	mixed := fmt.Sprintf("%s uses the status and sets %s.%s", ms.cs.where(s.Pos()), name, strings.TrimPrefix(other, "ObjectMeta."))
	ifs, ok := s.(*ast.IfStmt)
	if !ok {
		return nil, mixed
	}
	return ms.splitIf(ifs, mixed)
}

// litChange says why the status statement s stays for a function
// literal in it: one deferred or run by go using the object, which runs
// as the mutate returns (or whenever), or one setting the status, whose
// body -fix does not move out of the mutate.
func (ms *mutateStmts) litChange(s ast.Stmt) string {
	why := ""
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.DeferStmt, *ast.GoStmt:
			if len(ms.uses(n)) > 0 {
				why = fmt.Sprintf("%s defers a call using %s, or runs one by go, which runs as the mutate returns or later: -fix does not move it out of the mutate", ms.cs.where(n.Pos()), ms.obj.Name())
			}
		case *ast.FuncLit:
			if slices.ContainsFunc(ms.uses(n), func(u objUse) bool { return u.field == "Status" && u.sets || u.handed != "" }) {
				why = fmt.Sprintf("%s changes the status in a function literal, called there or later: -fix does not move its body out of the mutate", ms.cs.where(n.Pos()))
			}
		}
		return why == ""
	})
	return why
}

// locals says why a statement cannot leave the mutate for its names: a
// leaf moving using a local a leaf staying declares, or the other way,
// a split if's condition using a local of the mutate, a moving leaf
// setting a variable outside the moving leaves (set later, or not at
// all on create), or reading one a later leaf sets.
func (ms *mutateStmts) locals() string {
	info := ms.cs.pass.TypesInfo
	owner := func(v types.Object) int {
		return slices.IndexFunc(ms.leaves, func(l leaf) bool { return v.Pos() >= l.node.Pos() && v.Pos() < l.node.End() })
	}
	inMoved := func(v *types.Var) bool {
		j := owner(v)
		return j >= 0 && ms.leaves[j].status
	}
	for i, l := range ms.leaves {
		why := ""
		ast.Inspect(l.node, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || why != "" {
				return why == ""
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || v == ms.obj {
				return true
			}
			if j := owner(v); j >= 0 && j != i && (l.cond || ms.leaves[j].status != l.status) {
				why = fmt.Sprintf("%s uses %s, which %s declares in the mutate", ms.cs.where(id.Pos()), v.Name(), ms.cs.where(v.Pos()))
			}
			return why == ""
		})
		if why != "" {
			return why
		}
		if !l.status && !l.cond {
			continue
		}
		if why := ms.setLater(i); why != "" {
			return why
		}
		if l.cond {
			continue
		}
		if why := movedSets(ms.cs, ms.obj, l, inMoved); why != "" {
			return why
		}
	}
	return ""
}

// mustCursor is n's cursor (the root's when n is out of sight, which
// split has already refused).
func mustCursor(si *site, n ast.Node) inspector.Cursor {
	c, _ := si.cursor(n)
	return c
}

// setLater says why the moving leaf ms.leaves[i] cannot run after the
// mutate: it reads a variable outside the mutate that a later leaf sets
// (itself or in a literal it runs: callees), which it would then read
// set.
func (ms *mutateStmts) setLater(i int) string {
	info := ms.cs.pass.TypesInfo
	li := ms.leaves[i]
	read := map[*types.Var]bool{}
	roots, _ := leafRoots(ms.cs, li)
	for _, root := range roots {
		for c := range root.Preorder((*ast.Ident)(nil)) {
			if v, ok := info.Uses[c.Node().(*ast.Ident)].(*types.Var); ok && v != ms.obj && (v.Pos() < ms.lit.Pos() || v.Pos() >= ms.lit.End()) && !inLit(li, v) {
				read[v] = true
			}
		}
	}
	for _, l := range laterLeaves(ms.leaves, i) {
		roots, in := leafRoots(ms.cs, l)
		for k, root := range roots {
			if n, _, v := firstSet(root, info, func(v *types.Var) bool { return read[v] }); n != nil {
				return fmt.Sprintf("%s reads %s, which %s%s sets after it", ms.cs.where(li.node.Pos()), v.Name(), ms.cs.where(n.Pos()), in[k])
			}
		}
	}
	return ""
}

// splitIf is an if that changes the status and more as two ifs of the
// same condition: the one left in the mutate without its moving leaves,
// the one moved without the rest. Its condition, which both evaluate,
// calls nothing but len, cap and conversions and reads no status; split
// and locals check it reads nothing a leaf after it sets.
func (ms *mutateStmts) splitIf(ifs *ast.IfStmt, mixed string) ([]leaf, string) {
	switch {
	case ifs.Init != nil:
		return nil, mixed + ", and -fix does not split an if with an init statement"
	case ifs.Else != nil:
		return nil, mixed + ", and -fix does not split an if with an else"
	}
	if n, what := condEffect(ms.cs.pass.TypesInfo, ifs.Cond); n != nil {
		return nil, fmt.Sprintf("%s, and its condition %s at %s, which both of the split ifs would do", mixed, what, ms.cs.where(n.Pos()))
	}
	cond := leaf{node: ifs.Cond, cond: true, reads: map[string]bool{}, sets: map[string]bool{}}
	for _, u := range ms.uses(ifs.Cond) {
		if u.field == "Status" {
			return nil, mixed + ", and its condition reads the status: the if left in the mutate would decide on the status CreateOrPatch read"
		}
		cond.reads[u.field] = true
	}
	out := []leaf{cond}
	for _, s := range ifs.Body.List {
		switch s.(type) {
		case *ast.LabeledStmt, *ast.BranchStmt:
			return nil, fmt.Sprintf("%s, and -fix does not split an if holding a label or a jump (%s)", mixed, ms.cs.where(s.Pos()))
		}
		ls, why := ms.leavesOf(s)
		if why != "" {
			return nil, why
		}
		out = append(out, ls...)
	}
	return out, ""
}

// condEffect is what in a condition does more than read: a call, but of
// len, cap, a conversion or a reader of the metadata (metav1's IsZero
// and Get methods, controllerutil.ContainsFinalizer), or a receive; nil
// for none.
func condEffect(info *types.Info, cond ast.Expr) (ast.Node, string) {
	var at ast.Node
	what := ""
	ast.Inspect(cond, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				return true
			}
			if f := calleeFunc(info, x); f != nil && f.Pkg() != nil {
				switch p, name := f.Pkg().Path(), f.Name(); {
				case p == "k8s.io/apimachinery/pkg/apis/meta/v1" && f.Signature().Recv() != nil && (name == "IsZero" || strings.HasPrefix(name, "Get")),
					p == "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil" && name == "ContainsFinalizer":
					return true
				}
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && (b.Name() == "len" || b.Name() == "cap") {
					return true
				}
			}
			at, what = x, "calls "+types.ExprString(x.Fun)
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				at, what = x, "receives from "+types.ExprString(x.X)
			}
		}
		return at == nil
	})
	return at, what
}

// halves is what of the moving statement s moves (its status leaves) and
// what stays (its other leaves, none for a statement moving whole).
func (ms *mutateStmts) halves(s ast.Stmt) (move, stay []ast.Stmt) {
	for _, l := range ms.leaves {
		st, ok := l.node.(ast.Stmt)
		if !ok || st.Pos() < s.Pos() || st.End() > s.End() {
			continue
		}
		if l.status {
			move = append(move, st)
		} else {
			stay = append(stay, st)
		}
	}
	return move, stay
}
