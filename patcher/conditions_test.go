package patcher_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher"
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
	var conds []metav1.Condition
	c := metav1Condition()
	c.Message = strings.Repeat("é", patcher.MaxConditionMessageBytes) // two bytes a rune: twice the limit
	patcher.SetCondition(deployment(), &conds, c)
	got := conds[0].Message
	if len(got) > patcher.MaxConditionMessageBytes || !strings.HasSuffix(got, "[truncated]") || !strings.HasPrefix(got, "éé") || !utf8.ValidString(got) {
		t.Fatalf("message of %d bytes, valid UTF-8 %v, ends %q", len(got), utf8.ValidString(got), got[len(got)-20:])
	}
	short := metav1Condition()
	short.Message = strings.Repeat("a", patcher.MaxConditionMessageBytes)
	patcher.SetCondition(deployment(), &conds, short)
	if conds[0].Message != short.Message {
		t.Fatal("a message at the limit was changed")
	}
}
