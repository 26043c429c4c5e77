package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's composed writes (migratelife): kubebuilder's tutorial on
// one object in one Reconcile (an Update, the re-Get, a MergeFrom patch),
// writes on exclusive paths, a deferred write. Each function's writes
// share one patcher made at the object's read; a status change between a
// write and the next base (on any path) starts another life; a deferred
// write after a spec change stays with the line. A list item's write (a
// cached copy) and a decision from the status read move into Retry's
// mutate, which decides again on a conflict, with the if that guards
// it; a decision Retry would refuse (a status change before it) or used
// after the write is a Flush; phase functions deciding from the status
// go into Retry. An apply patch of its own type stays, for its shape,
// not its options; an apply before a merge write of its object stays,
// naming the write; an apply after them moves onto a patcher in apply
// mode made right before it (issue 80 A3: at c04149b it stayed). At
// e5f7ea8, 15 of the first 18 moved, none into Retry (the list items
// stayed), the apply onto a second patcher alive at once with the
// Update's, and the apply patch was kept for "several options". A
// deferred write beside an apply (applydefer.go) keeps the apply only
// when it may run after the apply stored: guarded by a named error
// result that only the apply's failure makes non-nil after it, it moves
// (at f912d10 every deferred write kept it: "in the function literal ...
// which may run after the apply or not at all"; the four applies here
// that move were kept; an apply after a change of the object since its
// last write stays: a patcher made right before it would take that change
// as its base, and the apply would send nothing). A result set twice by
// other deferred code is named where it is first set (at cf96f03, where
// the last statement beside the first set it).
func TestMigrateLife(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/migratelife")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
				moved++
			} else if !strings.Contains(d.Message, "(not moved to the patcher: ") {
				t.Errorf("%s: not moved, and no reason: %s", r.Pass.Fset.Position(d.Pos), d.Message)
			}
		}
	}
	if moved != 55 {
		t.Errorf("%d writes moved onto a patcher, want 55", moved)
	}
}

// Where the written object came from (migrateorigin): a map's value
// reached through a parameter, a map's index, a parameter whose caller
// passes a List item are cached copies: each write's decision moves into
// Retry (lws's ScalerManager.WriteStatus, moved at 1a53852 onto a plain
// Flush of a patcher made over a copy of a cached List item). A status
// patch whose base predates a metadata Patch of the same object on its
// path (karpenter's nodeclaim lifecycle, locked at 1a53852: a 409 each
// time both change) stays, without a lock, naming that write.
func TestMigrateOrigin(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers}), "example.com/op/controllers/migrateorigin")
	retried := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					if strings.Contains(string(e.NewText), "Patcher.Retry(ctx, func(") {
						retried++
					}
				}
			}
		}
	}
	if retried != 3 {
		t.Errorf("%d writes moved into Retry, want 3", retried)
	}
}

// What a callee does to the object, from its body (migratecallee):
// karpenter's IsManaged reads it in a closure handed to
// slices.ContainsFunc and returns a bool, which kept 9 of its writes at
// 1a53852 ("aliased or handed on before the read"). A closure that is
// kept, or that changes the spec, still keeps the write.
func TestMigrateCallee(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migratecallee="}),
		"example.com/op/managedutil", "example.com/op/conds", "example.com/op/controllers/migratecallee")
}

// An interface method's implementations, from the values the package puts
// in an unexported field or variable (migrateimpls): karpenter's
// consistency Check.Check over c.checks kept its write ("which
// implementation runs there is not followed") though its one
// implementation reads. One that changes the spec, or values from a
// caller or a slice handed on, keep the write.
func TestMigrateImpls(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateimpls="}),
		"example.com/op/controllers/migrateimpls")
}

// A reference into the spec assigned into the object's own status
// (migrateshare): karpenter's capacitybuffer kept its write ("whose uses
// are not followed") though nothing writes through the shared pointer.
// A write through it, the object handed on after, a loop, or a function
// literal keep the write.
func TestMigrateShare(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateshare="}),
		"example.com/op/controllers/migrateshare")
}

// A holder of the object kept in a field of another value
// (migrateheldfield): jobset's setCondition hands &eventParams{object: js}
// to enqueueEvent, which appends it to updateStatusOpts.events, read by
// an EventRecorder after the write; kept at s88a ("which -fix does not
// follow with what it holds"). A later use that writes through the held
// object, a field handed on or exported, or a callee that keeps the
// holder elsewhere keep the write.
func TestMigrateHeldField(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateheldfield="}),
		"example.com/op/controllers/migrateheldfield")
}

// Parts of the object given to client-go's apply configuration setters
// (migrateapplysetter): lws's leaderworkerset_controller.go:565 was kept
// at s88a because pvc.Spec.AccessModes goes to WithAccessModes, "whose
// bodies -fix does not analyse". applyconfiguration-gen's setters copy
// what they are given (a table: readersapply.go); a map given by value
// is shared, and the configuration then holds it: followed
// (readersapplyholder.go), it keeps the write only when written through.
func TestMigrateApplySetter(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migrateapplysetter="}),
		"example.com/op/controllers/migrateapplysetter")
}

// Issue 80 B1: migratelife's shapes on kubebuilder's tutorial form, the
// object a local value passed by its address (migratelifevalue). The
// patcher is made over &order, holding order itself; every write is its
// Flush, as in the pointer form; the one reassigned whole stays. At
// cc13c6a, 1 of migratelifevalue.go's 13 writes moved ("the object is
// &order, the address of a local value"). An apply after a deferred literal that changes the status
// (deferapply.go) moves: the literal runs after it (at cc13c6a: "changed
// at line 26", a line of the literal), and so does a write of the body
// before a deferred literal that changes the spec (deferSpecAfter). A
// conflict loop on a value (loop.go) becomes Fetch and Retry, the value
// taking the patcher's object after it (at cc13c6a: "declared at line 17
// from an object that may be held elsewhere", of var order v1.Widget).
// A re-read after a write (reread.go) is read into the value by
// FetchWidgetStatusPatcherInto, assigned to the first read's patcher: one
// patcher, no copy (a deferred literal flushing it reads the variable
// when it runs: the patcher of the last read); where that patcher is
// handed to a helper or is out of scope, the re-read keeps a patcher of
// its own and the copy. A defer statement's call registered before the
// re-read (defer p.Flush(ctx) holds the old patcher, its base older than
// the re-read) keeps the writes (migratedeferheld.go). A function literal
// held in a local and given &order between the read and the re-read
// (kubebuilder's CronJob tutorial's getNextSchedule) keeps one patcher when
// it only reads order; one writing its status, or a method value, keeps
// the re-read's patcher its own (rereadfuncvalue.go).
func TestMigrateLifeValue(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true, TestRefs: "example.com/op/controllers/migratelifevalue="}), "example.com/op/controllers/migratelifevalue")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 1 && strings.HasPrefix(d.SuggestedFixes[0].Message, "move the status write onto WidgetStatusPatcher") {
				moved++
			}
		}
	}
	if moved != 44 {
		t.Errorf("%d writes moved onto a patcher, want 44", moved)
	}
}

// TestMigrateValueOldPatchers: the generated package has no
// Fetch<Kind>StatusPatcherInto (-patchers without :into, as the command
// passes a package generated before it): the value's re-read keeps the
// form that package compiles, a Fetch of its own, the copy and New.
func TestMigrateValueOldPatchers(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: strings.TrimSuffix(opPatchers, ":into")}), "example.com/op/controllers/migratevalueold")
}

// Issue 80: the pointer form's re-read (migratereread) with a write of
// the first patcher in a function literal that runs after it.
func TestMigrateRereadPointer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/migratereread")
}
