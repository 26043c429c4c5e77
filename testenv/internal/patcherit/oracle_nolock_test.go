package patcherit_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Found by the oracle (seeds 42 and 322, no fault needed): an apply
// without the lock puts back another writer's condition that was removed
// between its read and its write. docs/apply.md: the no-lock apply holds
// what the decision changed since its base (keyed lists item by item),
// laid over the values the server holds when it is sent; the decision
// here changed only its own condition. The cause: the rebase took the
// in-memory list whole when the fresh read had no conditions at all
// (omitempty), so the condition it had merely read went back in.
func TestOracleNoLockApplyKeepsARemovalItDidNotDecide(t *testing.T) {
	e := oracleEnv(t)
	key := newWidget(t, e.Client)
	apply := func(owner string, mode patcher.WriteMode) *patcher.Patcher[*v1.Widget] {
		t.Helper()
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(owner), patcher.WithWriteMode(mode))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	theirs := apply("oracle-theirs", patcher.WriteApply)
	meta.SetStatusCondition(&theirs.Object().Status.Conditions, metav1.Condition{Type: "Theirs", Status: metav1.ConditionTrue, Reason: "Oracle"})
	theirs.Object().Status.Phase = "Theirs" // a field it keeps: its apply never empties the status
	if err := theirs.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	mine := apply("oracle-mine", patcher.WriteApplyWithoutLock) // reads [Theirs]
	theirs = apply("oracle-theirs", patcher.WriteApply)
	meta.RemoveStatusCondition(&theirs.Object().Status.Conditions, "Theirs")
	if err := theirs.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, e.Client, key).Status.Conditions; len(got) != 0 {
		t.Fatalf("their removal stored %v; want no condition", got)
	}
	meta.SetStatusCondition(&mine.Object().Status.Conditions, metav1.Condition{Type: "Mine", Status: metav1.ConditionTrue, Reason: "Oracle"})
	if err := mine.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key).Status.Conditions
	if meta.FindStatusCondition(got, "Mine") == nil || meta.FindStatusCondition(got, "Theirs") != nil {
		t.Fatalf("stored conditions %v; want Mine only: the no-lock apply put back Theirs, removed after its read", conditionTypes(&v1.Widget{Status: v1.WidgetStatus{Conditions: got}}))
	}
}
