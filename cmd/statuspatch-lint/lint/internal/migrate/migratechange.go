package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// useProblem says what is wrong with one use of the object (the last
// node of stack), "" if nothing.
func (si refs) useProblem(stack []ast.Node, v *types.Var) string {
	line := si.where(stack[len(stack)-1].Pos())
	name := v.Name()
	parent := func(i int) ast.Node {
		if i < 0 {
			return nil
		}
		return stack[i]
	}
	i := len(stack) - 1
	sel, ok := parent(i - 1).(*ast.SelectorExpr)
	if !ok || sel.X != stack[i] {
		if as, ok := parent(i - 1).(*ast.AssignStmt); ok && isLHS(as, stack[i]) {
			return fmt.Sprintf("%s is reassigned at %s", name, line)
		}
		if b, ok := parent(i - 1).(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			return "" // compared, as with nil: read
		}
		if call, ok := parent(i - 1).(*ast.CallExpr); ok && slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return ast.Node(a) == stack[i] }) {
			if fn := kube.CalledFunc(si.pass, call); fn != nil && patcherMaker(fn) {
				// Issue 80 A6: a generated constructor changes nothing;
				// what blocks is the patcher it makes, alive beside this
				// write's.
				return fmt.Sprintf("%s's status is written through the patcher %s makes at %s, in merge mode: a patcher of this write would be alive at once with it (write through that patcher; for an apply, make this write an ApplyStatus of a patcher made in apply mode after its last Flush)", name, funcName(fn, si.pass.Pkg), line)
			} else if fn != nil {
				return fmt.Sprintf("%s is passed to %s at %s%s: %s", name, funcName(fn, si.pass.Pkg), line, si.unanalysed(fn), si.mayChangeMore("its"))
			}
			if tv := si.pass.TypesInfo.Types[call.Fun]; tv.IsType() {
				return fmt.Sprintf("%s is converted to %s at %s, and the converted value is not followed: %s", name, types.ExprString(call.Fun), line, si.mayChangeMore("its"))
			}
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if _, ok := si.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
					return fmt.Sprintf("%s is passed to the builtin %s at %s, and what it makes is not followed: %s", name, id.Name, line, si.mayChangeMore("its"))
				}
			}
			if ast.Node(call.Fun) != stack[i] {
				return fmt.Sprintf("%s is passed to the function value %s at %s, which is not followed: %s", name, types.ExprString(call.Fun), line, si.mayChangeMore("its"))
			}
		}
		if st, ok := parent(i - 1).(*ast.StarExpr); ok {
			if as, ok := parent(i - 2).(*ast.AssignStmt); ok && isLHS(as, st) {
				return fmt.Sprintf("*%s is assigned whole at %s: %s", name, line, si.mayChangeMore("its")) // s112 (advhunt2/reads.go)
			}
		}
		return fmt.Sprintf("%s is passed on or aliased at %s: %s", name, line, si.mayChangeMore("its"))
	}
	s := si.pass.TypesInfo.Selections[sel]
	if s != nil && s.Kind() == types.FieldVal && sel.Sel.Name == "Status" {
		return ""
	}
	if s != nil && s.Kind() != types.FieldVal && si.methodUse(s) != "" {
		return "" // a method whose body reads it, or changes only its status (ParamsFact.Recv)
	}
	if s != nil && si.assumeRecv(s, sel) {
		return "" // an interface's, judged by the module's driver (paramsimplsrecv.go)
	}
	if s != nil && s.Kind() != types.FieldVal && !leavesMethod(si.pass, s) {
		fn, _ := s.Obj().(*types.Func)
		if why := si.factWhy(fn, -1); why != "" {
			return fmt.Sprintf("%s.%s is called at %s%s", name, sel.Sel.Name, line, why)
		}
		return fmt.Sprintf("%s.%s is called at %s%s: %s", name, sel.Sel.Name, line, si.unanalysed(fn), si.mayChangeMore("the"))
	}
	// A field outside the status, or what a getter returns: reading it is
	// fine, changing it, or a reference into it, is not.
	root := name + "." + sel.Sel.Name
	if s != nil && s.Kind() != types.FieldVal {
		root = "what " + root + "() returns"
	}
	if si.unsentChange(stack, i-1) {
		return "" // left unsent whatever is done with it, returned too: no caller follows it (migrateunsent.go)
	}
	direct, how := si.chainChange(stack, i)
	switch {
	case direct:
		if top, _ := changedAt(stack, i); top > 0 {
			if u, ok := stack[top-1].(*ast.UnaryExpr); ok && u.Op == token.AND {
				// lws's GetRoleConfigs: &ds.Spec.Roles[i] kept in the map it returns.
				return fmt.Sprintf("the address of %s is taken at %s, and %s", types.ExprString(stack[top].(ast.Expr)), line, si.outsideStatus(s))
			}
		}
		return fmt.Sprintf("%s is changed at %s: %s", root, line, si.outsideStatus(s))
	case how != "":
		return fmt.Sprintf("%s may be changed at %s: %s, and %s", root, line, how, si.outsideStatus(s))
	}
	return ""
}

// chainChange climbs from stack[top] through the selections, indexes,
// slices, dereferences, conversions and trusted method calls that go on
// from it, to the outermost expression of the chain, and says whether the
// code changes the object there: directly (assigned, incremented or
// decremented, its address taken), or how it may through a reference into
// the object (a map, slice, pointer, channel, function or interface) it
// hands on: passed to a function (builtins included), a method of it
// called, assigned, returned, put in a literal, sent, or ranged over with
// elements that hold references. A value without references may be used
// in any other way; a reference only compared, measured (len, cap),
// indexed, or given to readsRefs' functions.
func (si refs) chainChange(stack []ast.Node, top int) (direct bool, how string) {
	info := si.pass.TypesInfo
	parent := func(i int) ast.Node {
		if i < 0 {
			return nil
		}
		return stack[i]
	}
climb:
	for {
		e := stack[top]
		switch p := parent(top - 1).(type) {
		case *ast.ParenExpr, *ast.StarExpr:
			top--
			continue
		case *ast.IndexExpr:
			if p.X == e {
				top--
				continue
			}
		case *ast.SliceExpr:
			if p.X == e {
				top--
				continue
			}
		case *ast.TypeAssertExpr:
			if p.X == e {
				top--
				continue
			}
		case *ast.CallExpr:
			if si.returnsRefInto(p, e) {
				top-- // meta.FindStatusCondition(ref, t): a reference into ref
				continue
			}
			if len(p.Args) == 1 && p.Args[0] == e && info.Types[p.Fun].IsType() {
				if n := kube.NamedOf(info.TypeOf(p)); n != nil && n.Obj().Pkg() != nil && readOptionPkgs[n.Obj().Pkg().Path()] {
					return false, "" // client.MatchingLabels(...), labels.Set(...): read
				}
				top-- // a conversion: the same value
				continue
			}
		case *ast.SelectorExpr:
			if p.X != e {
				break
			}
			s := info.Selections[p]
			if s == nil || s.Kind() == types.FieldVal {
				top--
				continue
			}
			call, ok := parent(top - 2).(*ast.CallExpr)
			if !ok || call.Fun != p {
				return false, "the method value " + types.ExprString(p) + " is taken"
			}
			if holderSetter(s) {
				top -= 2 // a configuration's setter: the holder again (readersapplyholder.go)
				continue
			}
			if si.methodUse(s) != "" {
				return false, "" // a method whose body only reads it, or changes only a status (ParamsFact.Recv)
			}
			if statusGetter(si.pass, s) || si.assumeRecv(s, p) {
				return false, "" // its status or a part of it (refsstatusgetter.go, paramsimplsrecv.go)
			}
			if !leavesMethod(si.pass, s) {
				fn, _ := s.Obj().(*types.Func)
				return false, types.ExprString(p) + " is called" + si.unanalysed(fn) + si.factWhy(fn, -1)
			}
			if endsRead(s) {
				return false, ""
			}
			top -= 2 // a getter of a reference: what it returns goes on
			continue
		}
		break climb
	}
	e := stack[top].(ast.Expr)
	switch p := parent(top - 1).(type) {
	case *ast.AssignStmt:
		if isLHS(p, e) {
			return true, ""
		}
	case *ast.IncDecStmt:
		return true, ""
	case *ast.UnaryExpr:
		if call, ok := parent(top - 2).(*ast.CallExpr); ok && p.Op == token.AND && call.Fun != ast.Expr(p) && si.readers().readsRefs(call) {
			return false, "" // its address given to a reader: intstr.GetScaledValueFromIntOrPercent(&x.Spec.MaxSurge, ...)
		}
		if p.Op == token.AND && !si.addressRead(stack, top-1) {
			return true, "" // an address that may be written through (migrateaddress.go)
		} else if p.Op == token.AND {
			return false, ""
		}
	}
	if !holdsRefs(info.TypeOf(e)) {
		return false, "" // a value: read
	}
	ref := types.ExprString(e)
	switch p := parent(top - 1).(type) {
	case *ast.BinaryExpr, *ast.SwitchStmt, *ast.CaseClause:
		return false, "" // compared
	case *ast.IndexExpr:
		if p.Index == e {
			return false, "" // a key
		}
	case *ast.CallExpr:
		if p.Fun == e {
			return false, ref + " is called"
		}
		if si.readers().readsRefs(p) || si.readers().copiedFrom(p, e) {
			return false, ""
		}
		if x, same, ok := si.appendedTo(stack, top-1, p, e); ok && same {
			return false, "" // x = append(x, ...): x, followed where it was
		} else if ok {
			// The slice's uses, followed (migrateliteral.go).
			if how := si.followLocal(x); how != "" {
				return false, ref + ", a reference into the object, is appended to " + x.Name() + ", " + how
			}
			return false, ""
		}
		if how, ok := returns(si).followCall(stack, top-1, p, e); ok {
			// A function of the package: its parameter, followed
			// (migratelocal.go), and what it returns (refsreturned.go);
			// an apply configuration's setter (readersapplyholder.go).
			if how == "" {
				return false, ""
			}
			return false, ref + ", a reference into the object, is passed to " + si.callee(p) + ", " + how
		}
		if si.readers().importedReads(p, e) {
			return false, "" // a function of another package, by its ParamsFact
		}
		return false, ref + ", a reference into the object, is passed to " + si.callee(p) + si.unanalysed(kube.CalledFunc(si.pass, p))
	case *ast.RangeStmt:
		if t := info.TypeOf(e); t != nil && p.X == e && isSignature(t) {
			return false, ref + " is ranged over: the function is called"
		}
		if p.X == e && !rangeHoldsRefs(info, p) {
			return false, ""
		}
		if locals, ok := si.rangeLocals(p); ok && p.X == e {
			// The elements' uses, followed (migratelocal.go).
			for _, l := range locals {
				if how := si.followLocal(l); how != "" {
					return false, ref + " is ranged over with elements that hold references into the object, put in " + l.Name() + ", " + how
				}
			}
			return false, ""
		}
		return false, ref + " is ranged over with elements that hold references into the object"
	case *ast.ExprStmt:
		return false, "" // a result dropped
	case *ast.AssignStmt, *ast.ValueSpec:
		if as, ok := p.(*ast.AssignStmt); ok && configs(si).backToItself(stack, as, e) {
			return false, "" // v = v.WithF(...): the local followed (readersapplyholder.go)
		}
		if local, blank := si.definedLocal(p, e); blank {
			return false, ""
		} else if local != nil {
			// The local's uses, followed (migratelocal.go).
			if how := si.followLocal(local); how != "" {
				return false, ref + ", a reference into the object, is assigned to " + local.Name() + ", " + how
			}
			return false, ""
		}
		if holder := si.fieldHolder(p, e); holder != nil {
			// A field of a local struct: the local's uses, followed (migrateaddress.go).
			if how := si.followLocal(holder); how != "" {
				return false, ref + ", a reference into the object, is assigned into " + holder.Name() + ", " + how
			}
			return false, ""
		}
		if as, ok := p.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, r := range as.Rhs {
				if r != e {
					continue
				}
				// karpenter's cb.Status.ProvisioningStrategy =
				// cb.Spec.ProvisioningStrategy: the status shares the
				// pointer; what is done through it (migrateshare.go).
				if applies, why := shares(si).statusShare(as, as.Lhs[i], e); applies && why == "" {
					return false, ""
				} else if applies {
					return false, why
				}
				return false, ref + ", a reference into the object, is assigned to " + types.ExprString(as.Lhs[i]) + ", whose uses are not followed"
			}
		}
		return false, ref + ", a reference into the object, is assigned"
	case *ast.ReturnStmt:
		if returnedBy(stack, si.returning) {
			return false, "" // followed where it is called (checkCallee)
		}
		return false, ref + ", a reference into the object, is returned"
	case *ast.CompositeLit, *ast.KeyValueExpr:
		if si.literalReads(stack, top) {
			return false, "" // the literal only read (migrateliteral.go)
		}
		return false, ref + ", a reference into the object, is put in a composite literal"
	case *ast.SendStmt:
		return false, ref + ", a reference into the object, is sent"
	}
	return false, ref + ", a reference into the object, is handed on"
}
