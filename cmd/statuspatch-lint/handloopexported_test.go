package main

import (
	"strings"
	"testing"
)

// A caller whose conflict loop written by hand re-reads the object
// before the exported helper's call (issue 80, u's project C:
// DatabaseReconciler's loop, then conditions.Set(ctx, r.Client, db, ...)).
// The loop becomes the Retry of the patcher of the caller's write before
// it, the object staying that patcher's, and the helper moves with its
// callers, this one passing that patcher. At dc177ff8 the loop's Get was
// a second patcher's Fetch (g = gPatcher2.Object()), and the helper and
// its callers' writes stayed: "g is read again or assigned at line 26".
// The migrated caller is testdata/exportedhelper/generic/handloop_ctrl_gadget.go.golden.
func TestFixMovesExportedHelperAfterAHandConflictLoop(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, genericFiles(genericLoopCtrl),
		"internal/conds/conds.go:25: fixed: ",
		"ctrl/gadget.go:20: fixed: move the status write onto GadgetStatusPatcher (NewGadgetStatusPatcher, then Flush)",
		"ctrl/gadget.go:29: fixed: move the status write onto GadgetStatusPatcher (the hand conflict loop's decision in Retry of gPatcher; the loop's bound of 3 attempts is replaced by Retry's (patcher.DefaultBackoff))")
	noneKept(t, errOut)
	if !strings.Contains(readIn(t, mod, "ctrl/gadget.go"), "conds.Set(ctx, gPatcher.Patcher(), ") {
		t.Errorf("the caller does not pass gPatcher:\n%s", readIn(t, mod, "ctrl/gadget.go"))
	}
	matchGoldens(t, mod, "generic", "handloop_", "ctrl/gadget.go")
	vetFixed(t, mod)
}
