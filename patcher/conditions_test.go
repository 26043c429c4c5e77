package patcher_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patcher/internal/guard"
)

var keyWeb = client.ObjectKey{Namespace: "default", Name: "web"}

func metav1Condition() metav1.Condition {
	return metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Done"}
}

func TestSetConditionKeepsTransitionTimeAndFillsGeneration(t *testing.T) {
	d := deployment()
	var conds []metav1.Condition
	if !patcher.SetCondition(d, &conds, metav1Condition()) {
		t.Fatal("adding a condition reported no change")
	}
	if conds[0].ObservedGeneration != 3 {
		t.Fatalf("ObservedGeneration = %d, want the object's generation 3", conds[0].ObservedGeneration)
	}
	first := conds[0].LastTransitionTime
	if first.IsZero() {
		t.Fatal("LastTransitionTime not set")
	}
	later := metav1Condition()
	later.LastTransitionTime = metav1.NewTime(first.Add(time.Hour))
	later.Message = "still ready"
	if !patcher.SetCondition(d, &conds, later) {
		t.Fatal("a new message reported no change")
	}
	if !conds[0].LastTransitionTime.Equal(&first) {
		t.Fatal("LastTransitionTime moved although the status did not change")
	}
	if patcher.SetCondition(d, &conds, later) {
		t.Fatal("setting the same condition again reported a change")
	}
}

func TestMarkObserved(t *testing.T) {
	d := deployment()
	var observed int64
	if !patcher.MarkObserved(d, &observed) || observed != 3 {
		t.Fatalf("MarkObserved: observed = %d, want 3 and a change", observed)
	}
	if patcher.MarkObserved(d, &observed) {
		t.Fatal("second MarkObserved reported a change")
	}
}

func TestSetConditionTrimsALongMessage(t *testing.T) {
	// The server's limit counts characters: 32768 "é" (65536 bytes) fit,
	// one more does not.
	var conds []metav1.Condition
	c := metav1Condition()
	c.Message = strings.Repeat("é", patcher.MaxConditionMessageLength+1)
	patcher.SetCondition(deployment(), &conds, c)
	got := conds[0].Message
	if n := utf8.RuneCountInString(got); n != patcher.MaxConditionMessageLength || !strings.HasSuffix(got, " ... [truncated]") ||
		!strings.HasPrefix(got, "éé") || !utf8.ValidString(got) {
		t.Fatalf("message of %d characters, valid UTF-8 %v, ends %q", n, utf8.ValidString(got), got[len(got)-20:])
	}
	for _, msg := range []string{strings.Repeat("a", patcher.MaxConditionMessageLength), strings.Repeat("é", patcher.MaxConditionMessageLength)} {
		at := metav1Condition()
		at.Message = msg
		patcher.SetCondition(deployment(), &conds, at)
		if conds[0].Message != msg {
			t.Fatalf("a message of %d bytes at the limit was changed", len(msg))
		}
	}
}

// The condition guard (internal/guard) judges messages by the limit the
// patcher publishes.
func TestGuardMessageLimitIsThePublicOne(t *testing.T) {
	if guard.MaxConditionMessageLength != patcher.MaxConditionMessageLength {
		t.Fatalf("guard.MaxConditionMessageLength = %d, patcher.MaxConditionMessageLength = %d",
			guard.MaxConditionMessageLength, patcher.MaxConditionMessageLength)
	}
}
