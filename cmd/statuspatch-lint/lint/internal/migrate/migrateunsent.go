package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// A write to the status subresource, Status().Update or Status().Patch
// (or SubResource("status")), stores the status only: a change the code
// made outside it in memory (spec, labels, annotations) is left unsent,
// and after the write the object is the server's answer. The patcher
// made with patcher.WithNonStatusChangesUnsent() does the same, where
// by default its Flush refuses such a change (ErrNonStatusChange). So a
// write kept only because the code may change the object outside its
// status before it (useProblem's changes of a field of the object)
// moves, onto a patcher made with that option (ctorOptions). A change
// of the object's identity (its name, namespace, uid, resourceVersion,
// or its ObjectMeta whole) keeps it: the subresource write would go to
// what the object then names, the patcher's to what it read. With
// Options.NonStatusUnsent, which the linter sets unless
// -nonstatus-unsent=false: "it may change more than its status" is no
// reason to keep a write that never sent more than its status.

// identityFields are the fields of the object whose change keeps a
// status subresource write even with the option.
var identityFields = map[string]bool{"ObjectMeta": true, "TypeMeta": true, "Name": true, "Namespace": true, "UID": true, "ResourceVersion": true}

// subresourceWrite reports whether call writes the status subresource
// by Update or Patch: the writes that leave changes outside the status
// unsent.
func subresourceWrite(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	_, ok = statusReceiver(call)
	return ok && (sel.Sel.Name == "Update" || sel.Sel.Name == "Patch")
}

// unsentMutations is checkMutations of a write (write, the status
// subresource call the code makes): when the uses keep it only by
// changes outside the status, which write leaves unsent, it returns ""
// and m's patcher is made with WithNonStatusChangesUnsent (m.unsent);
// when something else keeps it too, that is the reason. A write whose
// check assumed interface calls (the module driver judges their
// implementations: paramsimplsmodule.go) is checked again the same way,
// so that an implementation changing the spec, left unsent as by the
// write, is judged by its ParamsFact.Unsent (IfaceCall.Unsent).
func (m checks) unsentMutations(write *ast.CallExpr) string {
	return m.unsentUses(write, m.checkMutations)
}

// unsentUses is unsentMutations of any check of m's uses: check again
// with the changes outside the status that write leaves unsent allowed
// (m.unsent set when that makes it pass). A link of a helper chain's
// body is checked so (migratehelperchain.go), as its callers' are. write
// nil: the write is an exported helper's of another package, and m's
// unsentOK was set only when its HelperFact says Subresource
// (callerMember).
func (m checks) unsentUses(write *ast.CallExpr, check func() string) string {
	assumed := 0
	if m.assumed != nil {
		assumed = len(*m.assumed)
	}
	why := check()
	grew := m.assumed != nil && len(*m.assumed) > assumed
	if why == "" && !grew || !m.unsentOK || m.apply != nil || write != nil && !subresourceWrite(write) {
		return why
	}
	if m.assumed != nil {
		// The interface calls the first check assumed were judged for a
		// patcher that refuses changes outside the status: the check
		// below assumes them again, with what is left unsent.
		*m.assumed = (*m.assumed)[:assumed]
	}
	m.unsent = true
	unsentWhy := check()
	if unsentWhy == "" {
		return ""
	}
	// What keeps it besides the changes left unsent.
	m.unsent = false
	if why == "" {
		// Not expected (the second check allows more): the first's
		// calls and verdict again.
		if m.assumed != nil {
			*m.assumed = (*m.assumed)[:assumed]
		}
		return check()
	}
	return unsentFactWhy(unsentWhy)
}

// identityWhy is why a change of the object's identity keeps a status
// subresource write whose other changes outside the status are left
// unsent: the write goes to the object the changed identity names.
const identityWhy = "the object's identity (its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole), which the status write follows and the patcher made at the read does not"

// mayChangeMore ends a reason that a use -fix does not follow keeps the
// write: "it may change more than <its|the> status", or, for a status
// subresource write whose changes outside the status are left unsent
// (si.unsent), what of those changes still keeps it.
func (si refs) mayChangeMore(det string) string {
	if !si.unsent {
		return "it may change more than " + det + " status"
	}
	return "it may change " + identityWhy
}

// outsideStatus ends a reason that a change of the object outside its
// status (s, the selection changed: a field, or a method whose result is)
// keeps the write: the patcher refuses it; or, for a status subresource
// write (si.unsent), where only a change of the object's identity keeps
// it (unsentChange), that it is one, or what a method returns, which -fix
// does not tell from one.
func (si refs) outsideStatus(s *types.Selection) string {
	switch {
	case !si.unsent:
		return "the patcher writes only the status" + onlyStatus
	case s != nil && s.Kind() != types.FieldVal:
		return "-fix does not tell which field of the object a method returns: it may be of " + identityWhy + unsentAdvice
	}
	return "that is a change of " + identityWhy + unsentAdvice
}

// onlyStatus says, after a change outside the status, what to change: Flush
// refuses it where Status().Update ignored it.
const onlyStatus = " (Flush returns patcher.ErrNonStatusChange): make that change on a DeepCopy() of the object, or keep this write"

const unsentAdvice = ": make that change on a DeepCopy() of the object, or keep this write"

// unsentFactWhy is the reason, from a check of a status subresource write
// with its changes outside the status left unsent, with what a callee's
// summary (ParamsFact, made for a patcher that refuses such changes) says
// at its end made true of that write: a use not followed may change the
// identity; a change outside the status is not told from one of the
// identity there.
func unsentFactWhy(why string) string {
	for _, det := range []string{"its", "the"} {
		if more := ": it may change more than " + det + " status"; strings.HasSuffix(why, more) {
			return strings.TrimSuffix(why, more) + ": it may change " + identityWhy
		}
	}
	if strings.HasSuffix(why, onlyStatus) {
		return why + " (a callee's summary does not tell a change left unsent from one of the object's identity: if by reading it is not the identity, the write may move by hand onto a patcher made with patcher.WithNonStatusChangesUnsent())"
	}
	return why
}

// unsentChange reports whether a change of the object's field selected
// at stack[i] (a selection of its variable), directly or through a
// reference into it, is one a status subresource write leaves unsent,
// when the write is one (si.unsent): a field of the object outside its
// status and identity. A field of ObjectMeta or TypeMeta selected through
// them (w.ObjectMeta.Labels) is judged as the field: only ObjectMeta or
// TypeMeta whole, and the name, namespace, uid and resourceVersion, are
// the identity.
func (si refs) unsentChange(stack []ast.Node, i int) bool {
	sel, ok := stack[i].(*ast.SelectorExpr)
	if !si.unsent || !ok {
		return false
	}
	field := func(sel *ast.SelectorExpr) bool {
		s := si.pass.TypesInfo.Selections[sel]
		return s != nil && s.Kind() == types.FieldVal
	}
	if !field(sel) || sel.Sel.Name == "Status" {
		return false
	}
	if inner, ok := stack[max(i-1, 0)].(*ast.SelectorExpr); ok && i > 0 && inner.X == sel && field(inner) && (sel.Sel.Name == "ObjectMeta" || sel.Sel.Name == "TypeMeta") {
		return !identityFields[inner.Sel.Name]
	}
	return !identityFields[sel.Sel.Name]
}

// spreadUnsent makes the patcher of a group's writes, one patcher, leave
// changes outside the status unsent when one of its writes needs it:
// each write is a status subresource write, which left them unsent.
func spreadUnsent(group []*migration) {
	if unsentCalls(group) {
		for _, g := range group {
			g.unsent = true
		}
	}
}

// unsentCalls reports whether one of ms needs WithNonStatusChangesUnsent.
func unsentCalls(ms []*migration) bool {
	for _, m := range ms {
		if m.unsent {
			return true
		}
	}
	return false
}

// unsentParam adds the object parameter p (by position i) of fd, an
// exported function whose uses of it change more than the status, to
// ParamsFact.Unsent when they change at most the status and what a status
// subresource write leaves unsent (its spec, its labels: unsentChange),
// or says in whys what still keeps it (the identity). A reference into
// the object the function returns or keeps is judged where it is made,
// as a change (m.returning and m.holding unset): into the spec, it is
// left unsent; into the status, it is the status; into ObjectMeta or a
// field of identity, it keeps. lws's GetRoleConfigs returns
// &ds.Spec.Roles[i]; spark-operator's GetWebUIIngressTLS the spec's
// IngressTLS: a caller's write with -nonstatus-unsent moves through
// them.
func (m *migration) unsentParam(fd *ast.FuncDecl, p *types.Var, i int, unsent []int, whys []ParamWhy) ([]int, []ParamWhy) {
	holding, returning, was := m.holding, m.returning, m.unsent
	m.holding, m.returning, m.unsent = nil, nil, true
	defer func() { m.holding, m.returning, m.unsent = holding, returning, was }()
	if why := m.checks().checkUses(fd.Body, p, fd.Body.Pos(), fd.Body.End(), 1); why != "" {
		return unsent, append(whys, ParamWhy{i, why})
	}
	return append(unsent, i), whys
}

// chainUnsent makes the patcher of each caller up a link's chain leave
// changes outside the status unsent (the link's own, which its write
// left unsent), or says why a caller passing its own writes' patcher
// cannot: that patcher refuses them (strict says which).
func chainUnsent(callers []*helperCaller, strict func() string) string {
	for _, k := range callers {
		switch {
		case k.link != nil:
			if why := chainUnsent(k.link.callers, strict); why != "" {
				return why
			}
		case k.shared != "" && !k.sharedUnsent:
			c := k.calls[0]
			return fmt.Sprintf("its caller at line %d also writes %s's status, on a patcher -fix makes without patcher.WithNonStatusChangesUnsent(), and %s",
				c.pass.Fset.Position(c.call.Pos()).Line, c.obj.Name(), strict())
		default:
			k.calls[0].unsent = true // the caller's one patcher (callerEdits)
		}
	}
	return ""
}

// importedUnsent reports whether c's caller hands c.obj, after its read,
// to an exported function of another package whose move makes its
// callers' patcher with patcher.WithNonStatusChangesUnsent()
// (HelperFact.Unsent): the caller makes one patcher for all its helpers'
// calls, of every package (helpersUnsent). At 8e2b241 a caller of such a
// link and of another exported helper made two patchers of one name,
// one with the option and one without, which did not compile.
func importedUnsent(c *migration) bool {
	fn := c.enclosingFunc()
	root, ok := c.cursor(fn)
	if !ok {
		return false
	}
	from := fn.Pos()
	if c.anchor != nil {
		from = c.anchor.End()
	}
	for cur := range root.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		callee := kube.CalledFunc(c.pass, call)
		var fact HelperFact
		if call.Pos() < from || callee == nil || callee.Pkg() == c.pass.Pkg || !c.pass.ImportObjectFact(callee, &fact) || !fact.Unsent {
			continue
		}
		if fact.ObjIndex < len(call.Args) && c.isObj(call.Args[fact.ObjIndex]) {
			return true
		}
	}
	return false
}
