package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// An exported write-only helper, func MarkFailed(ctx, c client.Client,
// obj *T, ...) error in a package of its own, moves as an unexported one
// does (migratehelper.go: it takes the patcher, its write becomes
// Flush, each caller makes the patcher where it read the object and
// passes it), with its callers in every package: all of them, or none. A
// package is analyzed alone, so the move is a group a driver that
// analyzes the whole module resolves (Options.Module; statuspatch-lint's
// own command): the helper's package gives its fix (the helper and its
// callers there) and a HelperFact; each package calling it gives a
// GroupMember, the edits of its callers or why they cannot move. The
// driver applies the helper's fix with every member's edits when none
// says why, and no test file or unchecked package of the module calls
// it; else it drops the fix and says why. Only a function (no receiver)
// whose client is a parameter, written by Update or a Patch whose base is
// taken in the helper, moves: each caller makes the patcher after its
// own Get, so the write stays one Flush, optimistic, from the caller's
// read.

// HelperFact marks an exported helper whose write moves when its
// callers in every package can make the patcher.
type HelperFact struct {
	ObjIndex    int    // the object's parameter, which becomes the patcher
	ClientIndex int    // the client's parameter, the patcher's client
	ClientRest  string // the rest of the client expression after it
	Recv        bool   // the client is the receiver's (an exported method of a chain: migratehelperchain.go), not ClientIndex's
	DropClient  bool   // the client's parameter goes: only the write used it
	Patcher     Patcher
	// Alone: only the helper's package was analyzed (a per-package pass:
	// vet, golangci-lint), so its write stays, but the module's driver
	// moves it with its callers; At is where (file:line). A caller's
	// reason says so (aloneHelperWrite); no caller composes with it.
	Alone bool
	At    string
	// Unsent: a link of the chain through it changes the object outside
	// its status before the write, which the write left unsent: each
	// caller makes the patcher with patcher.WithNonStatusChangesUnsent()
	// (migratehelperchain.go, chainUnsent).
	Unsent bool
	// Subresource: the helper's write is a status subresource write
	// (Status().Update or Patch, subresourceWrite), which left a change
	// outside the status unsent: a caller's change there (its own
	// helper's: a link that changes the spec) moves onto a patcher made
	// with patcher.WithNonStatusChangesUnsent(), as with a helper of the
	// caller's package (unsentUses; callerMember).
	Subresource bool
	// Generic: the helper is over an interface of the module
	// (migrategenericexported.go): it takes *patcher.Patcher[T], and each
	// caller passes its kind's patcher's Patcher() (Patcher is unset).
	Generic bool
}

// AFact marks HelperFact as an analysis fact.
func (*HelperFact) AFact() {}

func (f *HelperFact) String() string {
	drop := ""
	if f.DropClient {
		drop = " dropped"
	}
	alone := ""
	if f.Alone {
		alone = ", alone at " + f.At
	}
	if f.Unsent {
		alone += ", unsent"
	}
	return fmt.Sprintf("helper(obj %d, client %d%s%s, %s%s)", f.ObjIndex, f.ClientIndex, f.ClientRest, drop, f.Patcher.Type, alone)
}

// clientOnlyWritten returns the helper's client parameter (index) when
// the write is its only use: the write becomes Flush, so the parameter
// goes, from the helper and every caller (an unused parameter fails
// unparam and revive's unused-parameter). nil when the client is the
// receiver's or the body uses it otherwise.
func (h *helperMove) clientOnlyWritten(fd *ast.FuncDecl, index int, recvRoot bool) *types.Var {
	if recvRoot || index < 0 || index >= len(h.params()) {
		return nil
	}
	v := h.params()[index]
	used := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && h.pass.TypesInfo.Uses[id] == v && (id.Pos() < h.call.Pos() || id.Pos() >= h.call.End()) {
			used = true
		}
		return !used
	})
	if v == nil || used {
		return nil
	}
	return v
}

// exportedWhy is the fact that keeps an exported helper's write, and
// how to move it by hand; "" when the whole module is analyzed and the
// helper moves with its callers in every package (migrateexported.go).
func (h *helperMove) exportedWhy(fn *types.Func, name string, p Patcher, module bool) string {
	var fact string
	switch {
	case fn == nil:
		fact = name + " is not a function of this package"
	case h.decl.Recv != nil:
		fact = h.methodWhy(fn, name)
	case h.apply != nil:
		fact = name + " is exported and applies a configuration: -fix moves an exported helper's callers only for an Update"
	case h.baseParam != nil:
		fact = name + " is exported and takes its base as a parameter: -fix moves an exported helper's callers only for an Update"
	case !h.isUpdate():
		fact = name + " is exported and patches: -fix moves an exported helper's callers only for an Update"
	case !module:
		fact = name + " is exported and only this package is analyzed: a caller in another package would not be changed (statuspatch-lint -fix on the whole module moves it with them when every caller's write can move)"
	default:
		return ""
	}
	return fact + "; by hand: " + h.advice(p)
}

// advice is how a helper's write moves by hand: its API.
func (h *helperMove) advice(p Patcher) string {
	pkg := p.Pkg[strings.LastIndex(p.Pkg, "/")+1:]
	return fmt.Sprintf("have it take a *%s.%s in place of %s (each caller makes it with %s.New%s where it reads %s) and call its Flush(ctx) in place of this write",
		pkg, p.Type, h.obj.Name(), pkg, p.Type, h.obj.Name())
}

// A GroupMember is one package's part of an exported helper's move: the
// helper's own (Helper: its write at Pos, whose fix the driver keeps or
// drops, saying why with Stays), or a caller package's (Edits of its
// calls, the first at Pos, or Why they cannot move).
type GroupMember struct {
	Key    string // the helper's package path and name
	Helper bool
	Pos    token.Pos
	Edits  []analysis.TextEdit
	Why    string
	// Calls: the member is a write whose fix assumes these interface
	// calls (paramsimplsmodule.go; lint.ResolveIfaceCalls), no group.
	Calls []IfaceCall
	// Tests: the member is a helper's write whose fix the in-package
	// test files' calls join, rewritten by the driver (TestCalls.Edits;
	// lint.ResolveTestCalls), no group.
	Tests *TestCalls
	// Needs: the member is a write whose fix rests on these exported
	// helpers' moves (keptBetween; lint.ResolveGroups), no group.
	Needs []HelperNeed
	// Shares: a caller package's member whose edits pass the patchers of
	// its own writes at these positions (sharedPatcher): the group moves
	// only with them.
	Shares []token.Pos

	param, alone, advice string // the helper's: Stays' parts
	audit                bool   // an audit, whose findings give no reason (migratewhy.go)
}

// Stays is the reason a helper's write stays: why its callers cannot all
// move ("" when it has none in the module), and how to move it by hand.
func (g GroupMember) Stays(why string) string {
	switch {
	case g.audit:
		return ""
	case why == "":
		return g.param + ": " + g.alone
	}
	return g.param + ", exported, moves with all its callers or none, and " + why + ": " + g.advice
}

// exportHelper records the helper's fix as its group's: its fact for
// the callers' packages, its members for the driver. called: the fix
// moves callers of its own package.
func (h *helperMove) exportHelper(fn *types.Func, fact HelperFact, opts Options, called bool) {
	h.pass.ExportObjectFact(fn, &fact)
	if opts.Members != nil && !fact.Alone {
		*opts.Members = append(*opts.Members, exportedGroup(fn, h.call.Pos(), h.obj.Name()+" is a parameter of "+fn.Name(), h.advice(fact.Patcher), h.audit, called)...)
	}
}

// exportedGroup is the members of the move of an exported function's
// write at pos (a helper's, or a chain's through it, exportLinks): the
// helper's, whose reason (GroupMember.Stays) starts with param and ends
// with advice, how to move it by hand; and when called, one of its own
// package, whose callers the fix moves: the module calls it, and moves
// it unless another package's caller cannot (at cb49be1 a helper called
// only in its own package, not a link, stayed as called by no package).
func exportedGroup(fn *types.Func, pos token.Pos, param, advice string, audit, called bool) []GroupMember {
	key := fn.Pkg().Path() + "." + fn.Name()
	ms := []GroupMember{{
		Key: key, Helper: true, Pos: pos, audit: audit, param: param, advice: advice,
		alone: fn.Name() + " is exported and no package of the module calls it: -fix does not change an API only other modules may use; by hand: " + advice,
	}}
	if called {
		ms = append(ms, GroupMember{Key: key, Pos: pos})
	}
	return ms
}

// ExportedCallers adds to opts.Members the part of this package in the
// move of each exported helper of another package it uses (a HelperFact):
// its callers' edits, or why they cannot move.
func ExportedCallers(pass *analysis.Pass, files Files, ws []*Write, opts Options) {
	if !opts.Module || opts.Members == nil {
		return
	}
	GenericTypeMembers(pass, opts) // migrategenerictype.go
	var fns []*types.Func
	facts := map[*types.Func]*HelperFact{}
	callbacks := map[*types.Func]*CallbackFact{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, _ := pass.TypesInfo.Uses[id].(*types.Func)
			if fn == nil || fn.Pkg() == pass.Pkg || facts[fn] != nil || callbacks[fn] != nil {
				return true
			}
			var fact HelperFact
			var cb CallbackFact
			switch {
			case pass.ImportObjectFact(fn, &fact):
				facts[fn] = &fact
				fns = append(fns, fn)
			case pass.ImportObjectFact(fn, &cb):
				callbacks[fn] = &cb
				fns = append(fns, fn)
			}
			return true
		})
	}
	for _, fn := range fns {
		if cb := callbacks[fn]; cb != nil {
			*opts.Members = append(*opts.Members, callbackMember(pass, files, fn, cb))
			continue
		}
		if facts[fn].Generic {
			*opts.Members = append(*opts.Members, genericCallerMember(pass, files, ws, opts, fn, facts[fn]))
			continue
		}
		*opts.Members = append(*opts.Members, callerMember(pass, files, ws, opts, fn, facts[fn]))
	}
}

// callerMember is the package's part in the move of fn.
func callerMember(pass *analysis.Pass, files Files, ws []*Write, opts Options, fn *types.Func, fact *HelperFact) GroupMember {
	member := GroupMember{Key: fn.Pkg().Path() + "." + fn.Name()}
	// unsentOK: its callers' checks allow what the helper's status
	// subresource write left unsent (helperCallers' unsentMutations, with
	// no write of this package: unsentUses).
	unsentOK := opts.NonStatusUnsent && fact.Subresource
	h := &helperMove{migration: &migration{site: site{place: place{calls: calls{pass: pass, insp: files.Inspector}}}, audit: opts.Audit, unsentOK: unsentOK, patcherType: fact.Patcher.Type}, composeCallers: true, patcher: &fact.Patcher}
	callers, problem := h.helperCallers(fn, fact.ObjIndex, fact.ClientIndex, fact.Recv, fact.ClientRest, files, ws, false, opts)
	for _, hc := range callers {
		if problem == "" && hc.writes {
			problem = callerShared(pass, files, ws, opts, hc, fieldOwner{}) // an exported helper with a field owner stays (checkOwner)
		}
	}
	if problem == "" && fact.Unsent {
		problem = chainUnsent(callers, func() string {
			return fmt.Sprintf("%s changes it outside its status before the write at %s, which the status write left unsent and that patcher refuses (patcher.ErrNonStatusChange)", fn.Name(), fact.At)
		})
	}
	var edits []analysis.TextEdit
	if problem == "" {
		var drop []int
		if fact.DropClient {
			drop = []int{fact.ClientIndex}
		}
		edits, problem = h.callerEdits(fact.Patcher, callers, fact.ObjIndex, drop, map[*ast.File]bool{})
	}
	if problem != "" {
		member.Why = "in package " + pass.Pkg.Path() + ", " + problem
		return member
	}
	member.Pos, member.Edits = callers[0].calls[0].call.Pos(), edits
	for _, hc := range callers {
		if hc.shared != "" {
			member.Shares = append(member.Shares, hc.sharedAt)
		}
	}
	return member
}

// sharedPatcher is the patcher a caller that writes the object's status
// itself passes to the helper: its own writes' (one life, made at its
// read), or why they do not move. The helper's call is a write of that
// life (checkCallee: its HelperFact). ours is the helper's write's field
// owner, which the caller's writes must name too.
func sharedPatcher(pass *analysis.Pass, files Files, ws []*Write, opts Options, hc *helperCaller, ours fieldOwner) (string, string) {
	c := hc.calls[0]
	fn := c.enclosingFunc()
	line := pass.Fset.Position(c.call.Pos()).Line
	for _, o := range ws {
		call, ok := files.Calls[o.Lparen]
		if !ok || call.Pos() < fn.Pos() || call.End() > fn.End() || len(call.Args) < 2 || !c.isObj(call.Args[1]) {
			continue
		}
		at := pass.Fset.Position(call.Pos()).Line
		fix, why := Fix(pass, files, opts, ws, o)
		if fix == nil {
			return "", fmt.Sprintf("its caller at line %d also writes %s's status at line %d, which does not move (%s)", line, c.obj.Name(), at, why)
		}
		if why := sharedOwner(pass, files, opts, c, o, ours); why != "" {
			return "", why
		}
		names := map[string]bool{}
		for _, e := range fix.TextEdits {
			for _, n := range patcherVar.FindAllString(string(e.NewText), -1) {
				names[n] = true
			}
		}
		if len(names) != 1 {
			return "", fmt.Sprintf("its caller at line %d also writes %s's status at line %d, with more than one patcher of %s: move them by hand", line, c.obj.Name(), at, c.obj.Name())
		}
		for _, e := range fix.TextEdits {
			hc.sharedUnsent = hc.sharedUnsent || strings.Contains(string(e.NewText), "WithNonStatusChangesUnsent()")
		}
		for n := range names {
			for _, k := range hc.calls {
				if fix.TextEdits[0].Pos > k.call.Pos() {
					return "", fmt.Sprintf("its caller at line %d calls it before the patcher of its own writes of %s is made", pass.Fset.Position(k.call.Pos()).Line, c.obj.Name())
				}
			}
			hc.sharedAt, hc.sharedFix = call.Pos(), fix
			return n, ""
		}
	}
	return "", fmt.Sprintf("its caller at line %d: no status write of %s found in it", line, c.obj.Name())
}

// patcherVar matches the patcher variables a fix names.
var patcherVar = regexp.MustCompile(`\b[a-z_][A-Za-z0-9_]*Patcher[0-9]*\b`)

// helperWrite reports whether argument arg of a call of fn, a function
// of another package, is the object of an exported helper whose write
// moves by taking the patcher (its HelperFact): a write of the caller's
// life, which passes its patcher.
func (c *calls) helperWrite(fn *types.Func, arg int) bool {
	var fact HelperFact
	return fn != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn.Origin(), &fact) && fact.ObjIndex == arg && (!fact.Alone || c.aloneMoves)
}

// aloneHelperWrite is the reason a caller's write stays when argument
// arg of a call of fn is the object of an exported helper of another
// package whose write only the whole module's driver moves, with the
// caller's (HelperFact.Alone); "" when it is not.
func aloneHelperWrite(pass *analysis.Pass, fn *types.Func, arg int) string {
	var fact HelperFact
	if fn == nil || fn.Pkg() == pass.Pkg || !pass.ImportObjectFact(fn.Origin(), &fact) || fact.ObjIndex != arg || !fact.Alone {
		return ""
	}
	return fmt.Sprintf("its status is written at %s, "+aloneMove+": nothing in this package keeps them apart; statuspatch-lint -fix on the whole module moves them together unless another caller of it keeps its write", fact.At)
}

// aloneMove is what a caller's reason says of an exported helper of
// another package whose write only the whole module's driver moves.
const aloneMove = "a write in another package, which a run on this package alone does not move"

// aloneAsked is fix (fixWrite) of w, and when its reason is an exported
// helper's of another package that only the whole module moves
// (aloneHelperWrite), w asked again with that helper taken as moving,
// as the module's driver takes it: what keeps w then keeps it in the
// whole module too, and is its reason (at ae27bc6 a package at a time
// said the module "moves them together" of writes the module kept for
// their deferred decision, helper T's perpackage-reason-false). Asked
// so, the answer rests on an assumption and exports nothing (askStacks).
func aloneAsked(pass *analysis.Pass, files Files, opts Options, ws []*Write, w *Write, fix func(*analysis.Pass, Files, Options, []*Write, *Write) (*analysis.SuggestedFix, string)) (*analysis.SuggestedFix, string) {
	f, why := fix(pass, files, opts, ws, w)
	if f != nil || opts.Module || opts.aloneMoves || !strings.Contains(why, aloneMove) {
		return f, why
	}
	v, _ := askStacks.LoadOrStore(pass, new([]bool))
	stack := v.(*[]bool)
	*stack = append(*stack, true)
	opts.aloneMoves = true
	f2, why2 := fix(pass, files, opts, ws, w)
	*stack = (*stack)[:len(*stack)-1]
	if f2 == nil && why2 != "" {
		return nil, why2
	}
	return f, why
}

// at is where the helper's write is, file:line, for its callers'
// reasons (HelperFact.At).
func (h *helperMove) at() string {
	at := h.pass.Fset.Position(h.call.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
}
