package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
)

// A retryPlan moves a write's decision into the patcher's Retry: the
// statements that decide the status, straight-line in the write's block
// from the point where the object is what the patcher last read or wrote
// up to the write, become Retry's mutate, and the write becomes the
// Retry. On a conflict Retry reads the object again and decides again
// from it, where a Flush would return the 409 and the next reconcile
// would decide again from what may be the same stale cache.
//
// A write moves into Retry when the table below says so of its object
// (retryShapes); otherwise, or when its decision is not such a block, it
// is a Flush.
type retryPlan struct {
	stmts []ast.Stmt // the decision, in one statement list, right before the write's statement
	write ast.Stmt   // the write's statement
	// guard: an if whose body is the decision and the write: its
	// condition decides too. It stays around the Retry, and mutate checks
	// it again on the object it is given: a false condition runs no
	// Retry, which, even when mutate changes nothing, counts an attempt
	// and refuses a read it knows is stale (ErrStaleCache, or a re-read
	// through the API reader): things the handwritten code never did.
	guard *ast.IfStmt
	once  []onceCall // calls the decision makes once across attempts (migrateretryonce.go)
	// detached: the decision is not right before the write (a deferred
	// write's, migrateretrydefer.go): its lines go, the write's stay.
	detached bool
	// placed: a deferred write's decision made a Retry of its own at its
	// place, stmts the literal's changes (migrateretrydeferplaced.go).
	placed    *placedDecision
	carried   []carried             // names set here, used after the write (migrateretrycarry.go)
	uncarried map[*types.Var]string // why a name set outside the decision is not carried
}

// A retryShape is a reason a write's decision belongs in Retry.
type retryShape struct {
	name string
	// applies reports whether the shape holds for the write.
	applies func(r retries) bool
	// required: without a block to move, the write stays (a Flush would
	// be wrong), with the shape's reason.
	required bool
}

// retryShapes is the table: a new shape is an entry and a test.
var retryShapes = []retryShape{
	// A List item is a cached copy the model cannot show fresh: a Flush
	// of it is refused when this process wrote the object since (the
	// cache lags), and the next reconcile decides again.
	{name: "cached item", applies: func(r retries) bool { return r.item }, required: true},
	// The status is read to decide the status written: on a 409 that
	// decision is made again from the object Retry reads.
	{name: "decided from status", applies: func(r retries) bool { return r.readsStatus() }},
}

// retries plans a write's Retry (migrateretry.go).
type retries struct {
	*migration
	plan *retryPlan
	// exits: a return nil or continue in the decision is mutate's return
	// nil, as for a List item (a helper's, migratehelperretry.go).
	exits bool
}

// planRetry sets m.retry from the table, or returns why a write whose
// shape requires Retry cannot move.
func planRetry(m *migration) string {
	why, _ := planRetryOnce(m)
	return why
}

// planRetryOnce is planRetry, and the bare reason a call of the decision
// keeps it out of Retry (once, the classifier's: migrateonce.go), which
// a Flush of the code's patcher names in its note (liferetry.go).
func planRetryOnce(m *migration) (string, string) {
	if m.helper != nil || m.apply != nil || inDefer(m.path) {
		if m.item {
			return m.itemWhy, ""
		}
		if m.helper == nil && m.apply == nil {
			return deferDecision(retries{migration: m}), "" // migrateretrydefer.go
		}
		return "", ""
	}
	r := retries{migration: m}
	r.plan = r.block()
	exitWhy := ""
	if r.plan != nil {
		if exitWhy = planChecks(r, r.plan); exitWhy != "" {
			r.plan = nil
		}
	}
	onceWhy := ""
	if r.plan != nil {
		r.plan.once, onceWhy = onceCalls(r, r.enclosingFunc(), r.plan.nodes())
	}
	for _, s := range retryShapes {
		if !s.applies(r) {
			continue
		}
		if onceWhy != "" {
			why := "its decision cannot move into Retry as written: " + onceWhy + " (" + CachedDecision + ")"
			if m.itemWhy != "" {
				why = m.itemWhy + "; " + why
			}
			return r.shapeWhy(why), onceWhy
		}
		if r.plan != nil && len(r.plan.stmts) > 0 {
			m.retry = r.plan
			return "", ""
		}
		if s.required {
			return m.itemWhy + r.blockedWhy(exitWhy), ""
		}
	}
	return "", ""
}

// planChecks says why the decision p found by block may still not move:
// an exit after a change (migrateretryexit.go), a status read left
// before it (migrateretryhead.go), what it sets outliving it
// (migrateretryouter.go), a status read after a failed write
// (migrateretryfail.go); "" when none.
func planChecks(r retries, p *retryPlan) string {
	for _, check := range []func(retries, *retryPlan) string{retries.exitChanged, headWhy, outerWhy, failedReadWhy} {
		if why := check(r, p); why != "" {
			return why
		}
	}
	return ""
}

// block finds the write's decision: the statements right before the
// write's statement, in its list, back to the patcher's anchor, a read or
// a write of the object, or a statement that cannot run twice inside a
// function literal (a return, a branch, a defer, a call taking a
// context, a declaration used after the write). The object must be what
// the patcher holds where the block starts (Retry refuses changes made
// before it).
func (r retries) block() *retryPlan {
	p, _ := r.blockCarry()
	return p
}

// blockCarry is block, and why a name the decision declares cannot be
// carried out of it when that keeps it (migrateretrycarry.go).
func (r retries) blockCarry() (*retryPlan, string) {
	write, list, at := writeList(r)
	if at < 0 {
		return nil, ""
	}
	from := at
	for from > 0 && r.movable(list[from-1], write) {
		from--
	}
	if from == at {
		return nil, ""
	}
	prev := ast.Stmt(nil)
	if from > 0 {
		prev = list[from-1]
	}
	// A late base dropped for a patcher made at the read follows status
	// changes the patcher's base does not hold: Retry would refuse them
	// as pending (patcher.ErrPendingChanges) on every run. Only a base
	// taken with nothing changed since the read is where the patcher is.
	fresh := prev != nil && (prev == r.anchor || prev == r.late && r.lateFresh || prev == r.getCheck)
	// A guard moves whole: the object must be fresh at its condition
	// (guard asks), which runs in mutate, a reader given the status too.
	if !fresh && !r.freshAt(list[from]) && (from > 0 || r.guard(list, from, at) == nil) {
		return nil, ""
	}
	// A head that only reads the object leaves it as fresh as at from.
	from = outerHead(r, list, from, at) // migrateretryouter.go
	for from < at && zeroDecl(r, list[from], list[at]) {
		from++ // var result ctrl.Result: declared before the Retry (migrateretrycarry.go)
	}
	if from == at {
		return nil, ""
	}
	p := &retryPlan{stmts: list[from:at], write: write}
	if g := r.guard(list, from, at); g != nil {
		p.guard = g
	}
	if why := carry(r, p); why != "" {
		return nil, why
	}
	if !r.scoped(p) || r.capturesStatus(p) {
		return nil, ""
	}
	return p, ""
}

// writeList is the write's statement, the statement list holding it,
// and its index there (-1: none), the list innermost first.
func writeList(r retries) (ast.Stmt, []ast.Stmt, int) {
	write := r.enclosingStmt()
	if write == nil {
		return nil, nil, -1
	}
	for _, l := range r.enclosingLists() {
		if i := slices.Index(l, write); i >= 0 {
			return write, l, i
		}
	}
	return write, nil, -1
}

// freshAt reports whether the object at n is what the patcher made at
// the migration's anchor holds (life.freshAt).
func (r retries) freshAt(n ast.Node) bool {
	fresh, _ := staleAt(r, n)
	return fresh
}

// staleAt is freshAt, and where a path to n last changed the object
// when it is not fresh there (nil when none: it was not read).
func staleAt(r retries, n ast.Node) (bool, ast.Node) {
	l := newLife(&r.site, r.obj)
	if l == nil {
		return false, nil
	}
	l.made, l.via = r.anchor, r.via
	if d := checkedDefinition(r.reads(), r.anchor); d != nil && r.get == nil {
		l.made = d // obj, ok := e.ObjectNew.(*Kind) (originevent.go)
	}
	if s, ok := n.(ast.Stmt); ok {
		n = cfgNode(s) // an if's init or condition: the graph's node
	}
	if l.freshAt(n) {
		return true, nil
	}
	return false, l.changedAt
}

// movable reports whether s may run inside Retry's mutate (stopWhy).
func (r retries) movable(s, write ast.Stmt) bool {
	return r.stopWhy(s, write) == ""
}

// stopWhy names what in s cannot run inside Retry's mutate, a function
// of its own that may run more than once: the migration's anchor, drop
// or fetch (-fix rewrites them); the first return or branch that is not
// mutate's return nil (migrateretryexit.go), defer, go, label or
// recover(), all of which mean something only in the function written;
// a status write; a call given a context, but of a function of the
// package whose body only reads (migrateoncectx.go). "" when none: s
// may move. The one notion of a statement that cannot move: a direct
// write's block, a helper's, a guard, a note, a deferred write's.
func (r retries) stopWhy(s, write ast.Stmt) string {
	if rewritten(r, s) {
		return fmt.Sprintf("the statement at %s cannot run again inside it", r.where(s.Pos()))
	}
	why := ""
	ast.Inspect(s, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if r.exitOf(n, s, write) == nil {
				why = returnWhy(r, n, write)
			}
		case *ast.BranchStmt:
			if !innerBranch(r, s, n) && r.exitOf(n, s, write) == nil { // the decision's own loop; mutate's return nil
				why = fmt.Sprintf("the %s at %s skips more than the write, which mutate's return nil cannot", n.Tok, r.where(n.Pos()))
			}
		case *ast.DeferStmt:
			why = fmt.Sprintf("the defer at %s would run when Retry's function returns, on each attempt, not when %s does", r.where(n.Pos()), r.funcText())
		case *ast.GoStmt, *ast.LabeledStmt:
			why = fmt.Sprintf("the statement at %s cannot run again inside it", r.where(s.Pos()))
		case *ast.CallExpr:
			switch {
			case isStatusWrite(n) || r.moved[n]:
				why = fmt.Sprintf("the write at %s would run again on each retry", r.where(n.Pos()))
			case isRecover(r.pass.TypesInfo, n):
				// recover stops a panic only called by the deferred
				// function itself, never by Retry's.
				why = fmt.Sprintf("%s calls recover() at %s, which in Retry's function would stop no panic", callerText(r, s), r.where(n.Pos()))
			default:
				why = r.contextWhy(n, s.Pos(), write.Pos()) // migrateoncectx.go
			}
		}
		return true
	})
	return why
}

// rewritten reports whether s is a statement -fix rewrites: the
// migration's anchor, late base, Get and its check, a drop, a fetch.
func rewritten(r retries, s ast.Stmt) bool {
	if s == r.anchor || s == r.late || s == r.getCheck || s == r.get || slices.Contains(r.drop, s) {
		return true
	}
	for _, f := range append([]*fetchPlan{r.fetch}, r.rereads...) {
		if f != nil && (f.get == s || f.ifStmt != nil && ast.Stmt(f.ifStmt) == s) {
			return true
		}
	}
	return false
}

// returnWhy says why the return n, not mutate's return nil, cannot
// leave Retry's function: it leaves the function written.
func returnWhy(r retries, n *ast.ReturnStmt, write ast.Stmt) string {
	if why := errExitWhy(r, n, write); why != "" {
		return why // the write's error is returned (migrateretryerr.go)
	}
	last := len(n.Results) - 1
	switch {
	case last >= 0 && !isError(r.pass.TypesInfo.TypeOf(n.Results[last])):
		// spark-operator's predicate: return false, its answer.
		return fmt.Sprintf("the return at %s gives %s's result (%s), which mutate's return cannot", r.where(n.Pos()), r.funcText(), types.ExprString(n.Results[last]))
	case last >= 0 && !isNil(n.Results[last]):
		return fmt.Sprintf("the return at %s returns an error from %s, which mutate's return would hand to Retry", r.where(n.Pos()), r.funcText())
	}
	return fmt.Sprintf("the return at %s leaves %s, which mutate's return cannot", r.where(n.Pos()), r.funcText())
}

// isRecover reports whether c calls the builtin recover.
func isRecover(info *types.Info, c *ast.CallExpr) bool {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	return ok && info.Uses[id] == types.Universe.Lookup("recover")
}

// callerText names the function whose body holds s: "the deferred
// literal", the function literal at its line, or the declaration.
func callerText(r retries, s ast.Stmt) string {
	if c, ok := r.cursor(s); ok {
		for e := range c.Enclosing((*ast.FuncLit)(nil), (*ast.FuncDecl)(nil)) {
			switch f := e.Node().(type) {
			case *ast.FuncDecl:
				return f.Name.Name
			case *ast.FuncLit:
				if call, ok := e.Parent().Node().(*ast.CallExpr); ok && call.Fun == f {
					if _, ok := e.Parent().Parent().Node().(*ast.DeferStmt); ok {
						return "the deferred literal"
					}
				}
				return fmt.Sprintf("the function literal at %s", r.where(f.Pos()))
			}
		}
	}
	return "its function"
}

// scoped reports whether no name the block declares is used after it.
func (r retries) scoped(p *retryPlan) bool {
	from, to := p.stmts[0].Pos(), p.stmts[len(p.stmts)-1].End()
	declared := map[types.Object]bool{}
	for id, obj := range r.pass.TypesInfo.Defs {
		if obj != nil && id.Pos() >= from && id.Pos() < to {
			declared[obj] = true
		}
	}
	fn := r.enclosingFunc()
	for id, obj := range r.pass.TypesInfo.Uses {
		if r.apply != nil && id.Pos() >= r.call.Pos() && id.Pos() < r.call.End() {
			continue // the applied configuration: ApplyStatus's, in mutate (migrateapplyretry.go)
		}
		if v, ok := obj.(*types.Var); ok && p.carries(v) {
			continue // declared before the Retry (migrateretrycarry.go)
		}
		if declared[obj] && (id.Pos() < from || id.Pos() >= to) && id.Pos() >= fn.Pos() && id.Pos() < fn.End() {
			return false
		}
	}
	return true
}

// readsStatus reports whether the block reads the object's status other
// than to set it: a decision from the status read before the write.
func (r retries) readsStatus() bool {
	if r.plan == nil {
		return false
	}
	return r.statusRead(r.plan.nodes(), r.obj, map[*types.Func]bool{})
}

// nodes are the decision's: the guard's condition and the statements.
func (p *retryPlan) nodes() []ast.Node {
	var nodes []ast.Node
	if p.guard != nil {
		nodes = append(nodes, p.guard.Cond)
	}
	for _, s := range p.stmts {
		nodes = append(nodes, s)
	}
	return nodes
}
