package patcherit_test

import (
	"errors"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// Issue 11, the condition guard: a condition the API server refuses gets
// the server's 422 with the guard's words, naming the condition and the
// rule, nothing stored; the same status written by hand gets the same
// 422, so the guard is not stricter than the server; a valid condition
// passes.
func TestInvalidConditionIsExplained(t *testing.T) {
	e := env(t)
	valid := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done", LastTransitionTime: metav1.Now()}
	for name, tc := range map[string]struct {
		mutate func(*metav1.Condition)
		rule   string
	}{
		"reason with spaces":  {func(c *metav1.Condition) { c.Reason = "has spaces" }, "reason"},
		"empty reason":        {func(c *metav1.Condition) { c.Reason = "" }, "reason"},
		"bad type":            {func(c *metav1.Condition) { c.Type = "not a/valid/type" }, "type"},
		"bad status":          {func(c *metav1.Condition) { c.Status = "Maybe" }, "status"},
		"long message":        {func(c *metav1.Condition) { c.Message = strings.Repeat("m", patcher.MaxConditionMessageLength+1) }, "message"},
		"negative generation": {func(c *metav1.Condition) { c.ObservedGeneration = -1 }, "observedGeneration"},
		"valid":               {func(c *metav1.Condition) {}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			c, rec := countingClient(t, e)
			key := newWidget(t, e.Client)
			p, err := patcher.Fetch(ctx, c, key, &v1.Widget{})
			if err != nil {
				t.Fatal(err)
			}
			other := valid
			other.Type = "Other"
			tc.mutate(&other)
			p.Object().Status.Phase = "Running"
			p.Object().Status.Conditions = []metav1.Condition{valid, other}
			sent := len(rec.requests())
			err = p.Flush(ctx)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("Flush of a valid condition = %v", err)
				}
				return
			}
			if !errors.Is(err, patcher.ErrInvalidCondition) || !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "status.conditions[1]."+tc.rule) {
				t.Fatalf("Flush = %v, want ErrInvalidCondition and the server's 422, naming status.conditions[1].%s", err, tc.rule)
			}
			if name != "bad type" && !strings.Contains(err.Error(), `"Other"`) {
				t.Errorf("error %q does not name the condition type", err)
			}
			if n := len(rec.requests()) - sent; n == 0 {
				t.Fatal("nothing sent: the server did not decide")
			}
			if w := get(t, e.Client, key); w.Status.Phase == "Running" {
				t.Fatal("the refused write's phase was stored")
			}
			// The server refuses the same status written by hand: the guard is
			// not stricter than the server.
			w := get(t, e.Client, key)
			w.Status = p.Object().Status
			if err := e.Client.Status().Update(ctx, w); !apierrors.IsInvalid(err) {
				t.Fatalf("the server accepted what the guard refused (%s): %v", tc.rule, err)
			}
		})
	}
}
