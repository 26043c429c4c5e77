package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Adversary s97c on the deferred writes before a re-read.
func TestAdvDeferHunt(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advdeferhunt="}), "example.com/op/controllers/advdeferhunt")
}

// Adversary s97c on R2's deferred helper calls, in a deferred literal: a
// link deferring its leaf's call in a literal (defer func() { _ =
// r.deferLeaf(ctx, w) }()) and changing the spec after it moved at
// cb3c436 onto a patcher without patcher.WithNonStatusChangesUnsent(),
// and the leaf's Flush returned patcher.ErrNonStatusChange where the
// Update stored the status. migratehelperchain.go checked a link's code
// to its end only for a defer statement's call (deferredCall), not for a
// call in a deferred literal (inDefer); it asks both, and the chain
// moves with the option, as Direct's caller does (s97a's chain rule).
func TestAdvDeferLink(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, TestRefs: "example.com/op/controllers/advdeferlink="}), "example.com/op/controllers/advdeferlink")
}

// Adversary s97c, G's leftover confirmed: a deferred blind merge patch
// after an apply that stays (no forced ownership) moves at cb3c436 onto
// a patcher made at the read; the apply stores first, and the deferred
// Flush, its lock the read's resourceVersion, conflicts where the blind
// patch was stored. appliedBetween (migratekeptbetween.go, helper B's)
// leaves a deferred write to the apply's own move (deferredAfter), which
// is not asked when the apply stays; dropping that early return alone
// does not keep it (tried). Likewise a copy's Update (spec or status)
// between the read and a blind merge patch (G's other leftover,
// confirmed: copyBetween, copyStatusBetween): the patch moves onto a
// patcher locked on the read's resourceVersion, which the copy's write
// moved on the server. The golden is the expectation: nothing moves.
// Mended (s97 RB) in the model: Files.Applied's "between" runs, for a
// write in a deferred literal, to the function's end (runsBefore), and
// appliedBetween keeps the write when that apply stays (its own Fix);
// the lint's lock likewise leaves the deferred patch blind (staleLockBase
// asks enclosingApply for a base the literal captures). A copy handed to
// a write between is the object on the server (keptBetween's copyWrite).
// The apply itself gets its lock (the read's resourceVersion, nothing
// written between): that is no move.
func TestAdvApplyDefer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(),
		lint.NewAnalyzer(lint.Config{Patchers: opPatchers, NonStatusKept: true}), "example.com/op/controllers/advapplydefer")
}
