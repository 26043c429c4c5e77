package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Issue 80's subreconciler-lazy-field-nil (migratesublazy): a
// sub-reconciler whose client a field of the reconciler holds, set
// between the read and the call (a lazy init, a direct assignment, a
// method of the package that sets it), takes the patcher made after the
// statement that sets it, not at the read, where its client was a field
// of a nil pointer (at d6546153: NewPortStatusPatcher(r.status.c, port)
// above `if r.status == nil`, and the project's test panicked). One whose
// object is used before its client is set stays, naming both lines. The
// client is set where the code that sets it runs: a function literal
// where it is called (or handed to sync.Once's Do), a method of the
// package at any depth; a sub-reconciler that sets its own client
// before its write keeps it, naming the line. A set after the call (or
// after the helper's own write) in a loop around it, not around the read,
// keeps the write, naming the line and the loop: the next pass writes
// through it (s103: both moved). Code whose body is not the package's
// (unseen.go) sets the client as far as the package shows: an
// interface's method runs the package's implementation (patcher made
// after it), another package's function handed a value of the package
// may call its exported methods (made after it), or set an exported
// field of the chain it reaches (the write stays, naming the call and
// the field); a call through a function held in a field keeps the write,
// naming the field (s103: all four moved, the first two patchers made at
// the read, before their client was set), and so does a function held
// in a field handed to a call (sync.Once's Do). A package variable is a
// root like a field: a function that sets it lazily (lazyroot.go). A
// function value called between is what it is (funcparam.go): a
// parameter is what the call the walk entered by hands it (lws's seedFor,
// the closure a method returns: the patcher at the read; a closure that
// sets the client: the write stays, naming where), or, entered from
// another package, unknown for an exported function (stays), each
// argument of the package's calls for an unexported one (moved; s104:
// all four kept, "a function value -fix does not resolve"). A local a
// closure of its function sets (or whose address is taken) is a root too
// (Dory: at s104 its patcher was made at the read, before the closure's
// call set the local). A client set through a pointer to its field
// (alias.go) is set where the pointer is written through, not where it
// is taken (R5 of s105: the patcher made after `p := &q.sub`, before
// `*p = ...`, or at the read when p was taken before it: both panicked);
// an address held where -fix does not follow it keeps the write. A
// function handed to code that may run it later or concurrently (a
// WaitGroup's Go, a go statement: handed.go) sets the client at a
// synchronization point the walk does not see: the write stays, naming
// the call (R5: the patcher made between wg.Go and wg.Wait panicked).
// A client whose chain is checked against nil between the read and the
// call (an optional sub-reconciler: guarded.go) stays, naming the check
// (R5: the patcher made at the read, outside the guard, panicked). So
// does one whose call runs only as a branch after the read decides, a
// branch the call does not post-dominate on the function's control-flow
// graph, when a pointer of its chain may be nil (guardedcond.go: a bool
// gate, a method that checks the chain, a switch's case nil; R6 of s106:
// all three moved and panicked with the gate off); a chain read through
// no pointer moves under any branch, and so does a call every branch
// after the read reaches.
func TestMigrateSubReconcilerLazy(t *testing.T) {
	results := analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/migratesublazy="}), "example.com/op/controllers/migratesublazy")
	moved := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				if strings.HasPrefix(f.Message, "move the status write onto WidgetStatusPatcher (reconcile takes the patcher") {
					moved++
				}
			}
		}
	}
	if moved != 17 {
		t.Errorf("%d lazily set sub-reconcilers moved onto the patcher, want 17", moved)
	}
}
