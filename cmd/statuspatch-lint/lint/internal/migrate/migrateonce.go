package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// A decision moved into Retry runs again on each attempt (issue 80). A
// call in it that only reads (a compiled regexp's MatchString, a method
// whose body sets nothing) runs again as retry.RetryOnConflict's closure
// ran it. A call with a side effect (tokens.Add(1), nextID(), a
// metric's Inc) would hand out a second value after a conflict: it is
// made once, a sync.OnceValue declared before the Retry (a
// sync.OnceFunc for a result unused), called in the call's place. What
// cannot be so made once (called in a loop or a literal of the
// decision, given the object or a local of the decision, of a type the
// file cannot name) keeps the write, naming the line and the call. One
// classifier answers for every decision that moves into Retry: a
// direct write's, a deferred write's, a helper's, and a caller's
// literal given to a generic patchStatus[T] (migrategenericretry.go).
//
// A call has a side effect when the code shows one (migrateoncefx.go):
// a body in the package that sets a package variable, a field through
// its pointer receiver or a parameter given something outside the
// decision, sends on a channel, or calls what does; sync/atomic and
// math/rand; an interface method or a function value it cannot see.
// A package outside the module, whose bodies are not loaded, is read
// from a table.

// A onceSpan is a decision Retry's attempts run again.
type onceSpan struct {
	si       *site                  // the decision's file: its pass, its names
	where    func(token.Pos) string // how a reason names a line
	fn       ast.Node               // the function (declaration or literal) holding the decision
	from, to token.Pos              // the decision's extent: what it declares each attempt makes again
	held     []*types.Var           // the object, read again by each attempt
	stmt     ast.Stmt               // a caller's literal's: the statement the values are declared before
	fx       map[*types.Func]*effects
}

// A onceCall is a call of a decision made once across Retry's attempts.
type onceCall struct {
	call *ast.CallExpr
	name string   // the sync.OnceValue's (or OnceFunc's) variable
	typ  string   // its result's type, as the file names it; "" for a result unused: a sync.OnceFunc
	stmt ast.Stmt // a caller's literal's: declared before this statement; nil: before the write
	text text     // the file the declaration goes in
}

// onceCalls classifies the calls of a write's decision, nodes in the
// function fn: those made once, or why one keeps the write ("" when
// none does).
func onceCalls(r retries, fn ast.Node, nodes []ast.Node) ([]onceCall, string) {
	s := &onceSpan{si: &r.site, where: r.where, fn: fn, held: []*types.Var{r.obj, r.copyOf}}
	for _, n := range nodes {
		if !s.from.IsValid() || n.Pos() < s.from {
			s.from = n.Pos()
		}
		s.to = max(s.to, n.End())
	}
	return s.calls(nodes)
}

// calls classifies each call under roots, outside the calls made once.
func (s *onceSpan) calls(roots []ast.Node) ([]onceCall, string) {
	var out []onceCall
	taken := map[string]bool{}
	for _, root := range roots {
		rc, ok := s.si.cursor(root)
		if !ok {
			return nil, "its code is not in the package's syntax"
		}
		why := ""
		rc.Inspect([]ast.Node{(*ast.CallExpr)(nil)}, func(c inspector.Cursor) bool {
			if why != "" {
				return false
			}
			once, reader, w := s.classify(rc, c, taken)
			why = w
			if once != nil {
				out = append(out, *once)
			}
			return reader
		})
		if why != "" {
			return nil, why
		}
	}
	return out, ""
}

// classify answers for the call at c, under root: a reader run again
// by each attempt (reader), made once (once), or why it keeps the write.
func (s *onceSpan) classify(root, c inspector.Cursor, taken map[string]bool) (once *onceCall, reader bool, why string) {
	call := c.Node().(*ast.CallExpr)
	fx := s.sideEffect(call)
	if fx == "" {
		return nil, true, ""
	}
	at := fmt.Sprintf("the call %s at %s would run again on each attempt (%s), and ", types.ExprString(call.Fun), s.where(call.Pos()), fx)
	if w := s.blocked(root, c); w != "" {
		return nil, false, at + w
	}
	typ := ""
	if _, unused := c.Parent().Node().(*ast.ExprStmt); !unused {
		t, w := s.resultType(call)
		if w != "" {
			return nil, false, at + w
		}
		typ = t
	}
	return &onceCall{call: call, name: s.name(call, taken), typ: typ, stmt: s.stmt, text: s.si.text()}, false, ""
}

// sideEffect says what the call does that an attempt run again would
// do again ("Pop sets q.at at queue.go:9"), when the code shows it or
// cannot see it; "" for a reader. What it changes of the object, of the
// decision's locals, of the function's locals other than its
// parameters, of the receiver itself (r.next()) is the decision's own.
func (s *onceSpan) sideEffect(call *ast.CallExpr) string {
	info := s.si.pass.TypesInfo
	switch f := typeutil.Callee(info, call).(type) {
	case *types.Func:
		var recv ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
			if info.Selections[sel].Kind() != types.MethodVal {
				return ""
			}
			recv = sel.X
			if types.IsInterface(recvType(f)) {
				if !s.outside(recv) {
					return ""
				}
				return readerOr(f, f.Name()+" is an interface's method, whose body is not seen")
			}
		}
		e := s.effectsOf(f)
		if e.why != "" {
			return f.Name() + " " + e.why
		}
		if recv != nil && e.recv != "" && s.outside(recv) {
			return f.Name() + " " + e.recv
		}
		sig := f.Signature()
		for i, a := range call.Args {
			if w := e.params[min(i, sig.Params().Len()-1)]; w != "" && s.outside(a) {
				return f.Name() + " " + w
			}
		}
		if recv == nil {
			return s.unseenModuleCall(f, call)
		}
	case *types.Var:
		if s.outside(call.Fun) {
			return types.ExprString(call.Fun) + " is a function value, whose body is not seen"
		}
	}
	return ""
}

// outside reports whether e is rooted at a variable outside the
// decision: of the package, of a function around fn, a parameter of fn
// or a field of its receiver (r.counter.Add, seq.Add); not the receiver
// itself (r.Get), the object, or another local.
func (s *onceSpan) outside(e ast.Expr) bool {
	v := rootVar(s.si.pass.TypesInfo, e)
	if v == nil || v.Pos() >= s.from && v.Pos() < s.to {
		return false
	}
	for _, h := range s.held {
		if v == h {
			return false
		}
	}
	if v.Pos() < s.fn.Pos() || v.Pos() >= s.fn.End() {
		return true
	}
	var ft *ast.FuncType
	recv := false
	switch f := s.fn.(type) {
	case *ast.FuncDecl:
		ft = f.Type
		recv = f.Recv != nil && v.Pos() >= f.Recv.Pos() && v.Pos() < f.Recv.End()
	case *ast.FuncLit:
		ft = f.Type
	}
	if _, id := ast.Unparen(e).(*ast.Ident); id && recv {
		return false
	}
	return recv || ft != nil && v.Pos() >= ft.Pos() && v.Pos() < ft.End()
}

// blocked says why the call at c cannot be made once: in a loop or a
// function literal of the decision, given the object or a local the
// decision declares, rooted at a local declared after where its value
// would be; "" when it can.
func (s *onceSpan) blocked(root, c inspector.Cursor) string {
	if c != root {
		for e := range c.Parent().Enclosing() {
			switch e.Node().(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return "it is called in a loop of the decision: one value kept for the next attempt would not do; move the decision into Retry's function by hand"
			case *ast.FuncLit:
				if e != root {
					return "it is called in a function literal of the decision: move the decision into Retry's function by hand"
				}
			}
			if e == root {
				break
			}
		}
	}
	info := s.si.pass.TypesInfo
	for id := range c.Preorder((*ast.Ident)(nil)) {
		v, ok := info.Uses[id.Node().(*ast.Ident)].(*types.Var)
		if !ok {
			continue
		}
		for _, h := range s.held {
			if v == h {
				return fmt.Sprintf("it is given %s, whose status a conflict reads again: move the decision into Retry's function by hand", v.Name())
			}
		}
		if v.Pos() >= s.from && v.Pos() < s.to {
			return fmt.Sprintf("it is given %s, which the decision declares: move the decision into Retry's function by hand", v.Name())
		}
		if s.stmt != nil && v.Parent() != s.si.pass.Pkg.Scope() && v.Pos() >= s.stmt.Pos() && v.Pos() < s.from {
			return fmt.Sprintf("it is given %s, declared at %s in the statement calling the helper, after where its value would be made", v.Name(), s.where(v.Pos()))
		}
	}
	return ""
}

// resultType is the call's one result's type as the file names it, or
// its value's and error's, parenthesized ("([]byte, error)": a
// sync.OnceValues, os.ReadFile's), or why there is none.
func (s *onceSpan) resultType(call *ast.CallExpr) (string, string) {
	sig, ok := s.si.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	n := 0
	if ok {
		n = sig.Results().Len()
	}
	if n != 1 && (n != 2 || !isError(sig.Results().At(1).Type())) {
		return "", "it returns other than one value, or a value and an error: move the decision into Retry's function by hand"
	}
	bad := ""
	qual := func(p *types.Package) string {
		q, imp, why := s.si.text().qualifier(p.Path())
		if why != "" || imp != nil {
			bad = "its result's type is of " + p.Path() + ", which this file does not import: keep its value once by hand"
		}
		return strings.TrimSuffix(q, ".")
	}
	typ := types.TypeString(sig.Results().At(0).Type(), qual)
	if n == 2 {
		typ = "(" + typ + ", error)"
	}
	return typ, bad
}

// name is the OnceValue's variable: the receiver's root and the method
// (tokensAdd; a field's, counterAdd), a function's name and Once
// (nextIDOnce); not a name the function or an earlier call takes.
func (s *onceSpan) name(call *ast.CallExpr, taken map[string]bool) string {
	base := "once"
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		base = lowerFirst(f.Name) + "Once"
	case *ast.SelectorExpr:
		m := []rune(f.Sel.Name)
		m[0] = unicode.ToUpper(m[0])
		switch x := ast.Unparen(f.X).(type) {
		case *ast.SelectorExpr:
			base = x.Sel.Name + string(m) // r.counter.Add: counterAdd
		default:
			if s.si.pass.TypesInfo.Selections[f] == nil {
				base = lowerFirst(f.Sel.Name) + "Once" // pkg.F: fOnce, a local's name
			} else if v := rootVar(s.si.pass.TypesInfo, f.X); v != nil {
				base = v.Name() + string(m)
			}
		}
	}
	t := s.si.text()
	name := base
	for i := 2; taken[name] || t.declaredInFunc(name) || t.nameTaken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	taken[name] = true
	return name
}

// unseenModuleCall: a function of another package of the module, whose
// body the pass does not see (no fact carries its effects), given nothing
// of the decision (each argument a constant or rooted outside it), may
// change what a second call finds: it is made once, as the code before the
// move called it once per run (a sequence's Next hands out a number each
// call; helper GR, s107: an attempt after a conflict handed out a second).
// Given the object or the decision's locals it stays a reader of the
// attempt's read: made once it would answer for the first attempt's
// object. "" for other calls.
func (s *onceSpan) unseenModuleCall(f *types.Func, call *ast.CallExpr) string {
	if f.Pkg() == nil || f.Pkg() == s.si.pass.Pkg || outsideModule(s.si.pass, f) || readerOr(f, "x") == "" || f.Signature().Results().Len() == 0 {
		return ""
	}
	// Values only (a number, a string, an error): a result that refers to
	// memory (a configuration a constructor makes, which the attempt then
	// fills) made once would be shared by the attempts.
	for v := range f.Signature().Results().Variables() {
		if _, basic := v.Type().Underlying().(*types.Basic); !basic && !isError(v.Type()) {
			return ""
		}
	}
	for _, a := range call.Args {
		if tv, ok := s.si.pass.TypesInfo.Types[a]; ok && tv.Value != nil {
			continue
		}
		if !s.outside(a) {
			return ""
		}
	}
	return f.Name() + " is of " + f.Pkg().Path() + ", whose body is not seen here, and may change what a second call finds"
}

// lowerFirst is name with its first letter lower case: a local's name
// made from an exported function's (sequtil.Next: nextOnce).
func lowerFirst(name string) string {
	r := []rune(name)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}
