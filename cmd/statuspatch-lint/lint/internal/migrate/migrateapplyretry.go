package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// An apply whose status is decided from the status read (issue 80,
// project D's ticket),
//
//	ticket := q.Status.TicketID
//	if ticket == 0 {
//		ticket = tickets.Add(1)
//	}
//	ac := v1ac.Quota(q.Name, q.Namespace).WithStatus(v1ac.QuotaStatus().WithTicketID(ticket))
//	return ctrl.Result{}, r.Status().Apply(ctx, ac, client.FieldOwner("q"), client.ForceOwnership)
//
// moves into the patcher's Retry as the same decision written as a merge
// patch does (migrateretry.go): the decision's statements become mutate's,
// which ends by giving the configuration's status to ApplyStatus (an
// ApplyStatus made in an attempt is that attempt's: patcher/retry.go), and
// the calls it makes once are made once (migrateonce.go). On a 409 Retry
// reads the object again and decides again from it; a plain Flush would
// return the 409 and the next reconcile would decide again, making its
// token again. When the decision cannot be Retry's function, the apply
// stays, naming the status read.

// applyRetryAdvice ends why such an apply stays.
const applyRetryAdvice = ": a Flush would return the 409 of a stale decision, and the next reconcile decides again; move the decision by hand into the patcher's Retry, whose function gives the status to ApplyStatus"

// planRetry sets a.retry when the status applied is decided from the
// object's status, or returns why such an apply stays; "" and no plan when
// it is not so decided (a Flush, as before). A helper's apply, one made
// after merge writes (late), an unstructured one and a deferred one are
// not planned here.
func (a *applyMove) planRetry() string {
	if a.helper != nil || a.late || a.status != "" || a.item || inDefer(a.path) {
		return ""
	}
	r := retries{migration: a.migration}
	at := statusReadIn(r, a.anchor.End(), a.call.End())
	if !at.IsValid() {
		return ""
	}
	kept := func(why, advice string) string {
		return a.shapeWhy(fmt.Sprintf("%s's status is read at %s to decide the status applied, and %s%s", a.obj.Name(), r.where(at), why, advice))
	}
	p, carryWhy := r.blockCarry()
	if p == nil {
		if at >= a.call.Pos() {
			return kept("the configuration is built in the write's own call", strings.Replace(applyRetryAdvice, "; move", "; build the configuration in a statement before the write, or move", 1))
		}
		if why := strings.TrimPrefix(r.blockedWhy(""), "; its decision cannot move into Retry: "); why != "" {
			return kept("its decision cannot move into Retry: "+why, applyRetryAdvice)
		}
		if carryWhy != "" {
			return kept("the decision cannot become Retry's function: "+carryWhy, applyRetryAdvice) // migrateretrycarry.go
		}
		if why := usedAfterApply(a); why != "" {
			return kept("the decision cannot become Retry's function ("+why+")", applyRetryAdvice)
		}
		return kept("the decision cannot become Retry's function", applyRetryAdvice)
	}
	if why := planChecks(r, p); why != "" {
		if strings.HasPrefix(why, a.obj.Name()+"'s status is read at ") {
			return a.shapeWhy("its decision cannot move into Retry: " + why + applyRetryAdvice) // headWhy names the read
		}
		return kept("its decision cannot move into Retry: "+why, applyRetryAdvice)
	}
	if id, ok := ast.Unparen(a.ac).(*ast.Ident); ok {
		if def, _ := a.definition(identVar(a, id)); def == nil || def.Pos() < p.stmts[0].Pos() {
			return kept(fmt.Sprintf("the configuration %s is not built in the decision Retry would make again", id.Name), applyRetryAdvice)
		}
	}
	once, onceWhy := onceCalls(r, r.enclosingFunc(), append(p.nodes(), a.ac))
	if onceWhy != "" {
		return kept("its decision cannot move into Retry as written: "+onceWhy, applyRetryAdvice)
	}
	for _, c := range once {
		if c.call.Pos() >= a.call.Pos() {
			return kept(fmt.Sprintf("the write's own call makes %s, which Retry would make again on each attempt", types.ExprString(c.call)), applyRetryAdvice)
		}
	}
	p.once = once
	a.retry = p
	return ""
}

// identVar is the variable id uses.
func identVar(a *applyMove, id *ast.Ident) *types.Var {
	v, _ := a.pass.TypesInfo.Uses[id].(*types.Var)
	return v
}

// statusReadIn is where the object's status is first read between from and
// to in the write's function, outside function literals (headWhy's test);
// NoPos when it is not.
func statusReadIn(r retries, from, to token.Pos) token.Pos {
	at := token.NoPos
	r.eachUse(r.enclosingFunc(), r.obj, from, to, func(stack []ast.Node, id *ast.Ident) string {
		for _, n := range stack[1:] {
			if _, ok := n.(*ast.FuncLit); ok {
				return ""
			}
		}
		if readsStatusAt(r, stack, id, map[*types.Func]bool{}) {
			at = id.Pos()
			return "found"
		}
		return ""
	})
	return at
}

// usedAfterApply names a variable declared between the read and the
// apply's statement that is used after the apply's call, which keeps the
// decision out of Retry's function (retries.scoped); "" when none.
func usedAfterApply(a *applyMove) string {
	stmt := a.enclosingStmt()
	if stmt == nil {
		return ""
	}
	fn := a.enclosingFunc()
	var def, use *ast.Ident // the first use after the write, by position
	for id, obj := range a.pass.TypesInfo.Defs {
		v, ok := obj.(*types.Var)
		if !ok || id.Pos() < a.anchor.End() || id.Pos() >= stmt.Pos() {
			continue
		}
		for u, o := range a.pass.TypesInfo.Uses {
			if o == v && u.Pos() >= a.call.End() && u.Pos() < fn.End() && (use == nil || u.Pos() < use.Pos()) {
				def, use = id, u
			}
		}
	}
	if use == nil {
		return ""
	}
	return fmt.Sprintf("%s, declared at %s, is used at %s, after the write", def.Name, a.where(def.Pos()), a.where(use.Pos()))
}
