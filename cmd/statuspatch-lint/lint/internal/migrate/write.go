package migrate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"
)

// A Write is one status write the analyzer found, as Fix sees it.
type Write struct {
	Lparen    token.Pos // the call's Lparen, where SSA places it
	Verb      string    // Patch, Update, Apply...
	Kind      string    // the written object's kind
	Generated bool      // a generated patcher's Flush or Retry
	// Movable: handwritten, through Status() or SubResource("status"), of
	// an object of a concrete type.
	Movable bool
	Patcher *Patcher // the kind's generated patcher, nil when there is none
	// Unread: where the object is made (&Kind{...}), when the write's
	// function writes it before anything may have given it a
	// resourceVersion (the analyzer's model on SSA, lint/unread.go).
	Unread token.Pos
}

// A Patcher is a generated <Kind>StatusPatcher.
type Patcher struct {
	Type string // WidgetStatusPatcher
	Pkg  string // the package declaring it
	Into bool   // the package declares Fetch<Kind>StatusPatcherInto (migratefetch.go)
}

// Files are the package's calls by Lparen, which positions are in files
// the analyzer checks, and the package's syntax as an inspector, built
// once beside its SSA form: every walk of a function is a cursor of it.
type Files struct {
	Calls     map[token.Pos]*ast.CallExpr
	Checked   func(token.Pos) bool
	Inspector *inspector.Inspector
	// Once holds what -fix computes once per pass (NewOnce): nil, it is
	// computed at each use.
	Once *Once
	// Applied answers, from the analyzer's model of what a call does to
	// an object (lint/lockbasequery.go, on SSA: the package's functions,
	// literals, method values), whether an apply of the object the status
	// write at at (its Lparen) writes may run after the object's read
	// (from readFrom to readTo) and before the write; nil when none may,
	// or the model is not given.
	Applied func(readFrom, readTo, at token.Pos) *Applied
	// CallWrites answers from the same model how the call at lparen may
	// write the object it is given as its argument arg (the receiver not
	// counted): "" when it does not (another package's function its own
	// analysis saw only read it), "?" when the model has no such call.
	CallWrites func(lparen token.Pos, arg int) string
}

// Applied is an apply of an object Files.Applied finds: at Call, the
// apply (Via empty) or a call of Via, a function of the package, that
// applies the object it is handed, at Apply.
type Applied struct {
	Call, Apply token.Pos
	Via         string
	// Read: the object's read the model found in a function enclosing
	// the write's literal, when the one asked (a base) was after the
	// apply; NoPos when it is the one asked.
	Read token.Pos
}

// Once is what -fix computes once per pass of the analyzer, over the
// package's status writes: the constructors of its patch helpers
// (patchHelperCtors), which each write moving in place asks.
type Once struct {
	ws    []*Write // the writes ctors were computed over
	ctors map[*types.Func]bool
}

// NewOnce is the memory of one pass, for its Files.
func NewOnce() *Once { return &Once{} }

// Options are the analyzer's settings Fix reads.
type Options struct {
	Audit bool // an audit: a write of a shape -fix does not move gets no reason (migratewhy.go)
	// TestRefs is the analyzer's -test-refs: the unexported names each
	// package's in-package test files refer to.
	TestRefs string
	// Module: the whole module is analyzed, by a driver that resolves the
	// fix groups Members collects (migrateexported.go): an exported
	// helper's write moves with its callers in other packages.
	Module  bool
	Members *[]GroupMember
	// PatcherOf returns the generated patcher of an object's type, nil
	// when its kind has none: a helper over objects of any kind takes the
	// patcher its callers make for theirs (migrategeneric.go).
	PatcherOf func(types.Type) *Patcher
	// NonStatusUnsent: a status subresource write kept only by changes
	// outside the status moves onto a patcher made with
	// patcher.WithNonStatusChangesUnsent() (migrateunsent.go).
	NonStatusUnsent bool
	// Assumed, set with Module by the finding's caller, collects the
	// interface calls a fix assumes the module's driver checks
	// (paramsimplsmodule.go): nil, none is assumed.
	Assumed *[]IfaceCall
	// Needs, set with Module by the finding's caller, collects the
	// exported helpers' moves a fix rests on (keptBetween): the driver
	// keeps the write when one does not move.
	Needs *[]HelperNeed
	// aloneMoves: asked again, an alone helper's write moves (aloneAsked).
	aloneMoves bool
}
