package violation

import (
	"slices"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
)

// TestRetractPromotesTheNext: taking back the first violation makes the
// next of Also the first, with what it is about; an invariant none of
// them breaks any more leaves Names; taking back the last empties the
// record.
func TestRetractPromotesTheNext(t *testing.T) {
	r := New("lost", Detail{Object: "a"}, "m1")
	r.Add("lost", Detail{Object: "b"}, "m1") // the first's message: not in Also
	r.Add("stuck", Detail{Object: "c"}, "m2")
	r.Add("lost", Detail{Object: "d"}, "m3")
	if want := []string{"stuck: m2", "lost: m3"}; !slices.Equal(r.Also, want) || len(r.AlsoAbout) != 2 {
		t.Fatalf("Also %q (%d details), want %q", r.Also, len(r.AlsoAbout), want)
	}
	if r.Retract("lost", "m1") {
		t.Fatal("the record is empty after taking back one of three")
	}
	if r.Invariant != "stuck" || r.Message != "m2" || r.About.Object != "c" || !r.Names["lost"] {
		t.Fatalf("after the first is taken back: %s %q about %q, names %v", r.Invariant, r.Message, r.About.Object, r.Names)
	}
	if r.Retract("lost", "m3") || r.Names["lost"] || !r.Names["stuck"] {
		t.Fatalf("after the last lost write is taken back: names %v", r.Names)
	}
	if !r.Retract("stuck", "m2") {
		t.Fatal("the record is not empty after taking back every violation")
	}
}

// A violation promoted by taking back the first does not keep the first's
// Cause: trust-manager's lost status write (bundle.go:77) reported with
// the retracted delete's write (target/target.go:80) as its cause, and
// that write's audit, "not a status write".
func TestRetractDropsTheRetractedCause(t *testing.T) {
	r := New("own delete", Detail{}, "deleted by a delete at target/target.go:80")
	r.Cause = &outcome.Write{Verb: "delete", At: "target/target.go:80"}
	r.Add("lost", Detail{}, "overwritten by an apply of status without the lock at bundle/bundle.go:77")
	r.Retract("own delete", "deleted by a delete at target/target.go:80")
	if r.Invariant != "lost" || r.Cause != nil {
		t.Fatalf("after the first is taken back: %s, cause %+v, want lost and none", r.Invariant, r.Cause)
	}
}

// A violation promoted by taking back the first carries its own Cause,
// the write its message named when it was recorded (trace's failOn puts
// it in its Detail), so its report carries that write's audit class.
func TestRetractPromotesItsOwnCause(t *testing.T) {
	del := &outcome.Write{Verb: "delete", At: "target/target.go:80"}
	apply := &outcome.Write{Verb: "apply", At: "bundle/bundle.go:77"}
	r := New("own delete", Detail{Cause: del}, "deleted by a delete at target/target.go:80")
	r.Add("stuck", Detail{}, "m2")
	r.Add("lost", Detail{Cause: apply}, "overwritten by an apply of status without the lock at bundle/bundle.go:77")
	if r.Cause != del {
		t.Fatalf("first's cause %+v, want the delete", r.Cause)
	}
	r.Retract("own delete", "deleted by a delete at target/target.go:80")
	if r.Invariant != "stuck" || r.Cause != nil {
		t.Fatalf("after the first is taken back: %s, cause %+v, want stuck and none (it named no write)", r.Invariant, r.Cause)
	}
	r.Retract("stuck", "m2")
	if r.Invariant != "lost" || r.Cause != apply {
		t.Fatalf("after the second is taken back: %s, cause %+v, want lost and its apply", r.Invariant, r.Cause)
	}
}

// TestMarksAndSeverity: a lost write marked time-only ranks as
// TimeOnly, with the note ending its message; the same write marked in
// Also changes that entry's detail only.
func TestMarksAndSeverity(t *testing.T) {
	const lost = "no lost write" // explore.InvariantLostWrite
	r := New(lost, Detail{Object: "a", Fields: []string{"status.x"}}, "m1")
	r.Add(lost, Detail{Object: "b"}, "m2")
	r.MarkTimeOnly(lost, "m2", " (times only)", false)
	if !r.AlsoAbout[0].TimeOnly || r.About.TimeOnly || r.Also[0] != lost+": m2 (times only)" {
		t.Fatalf("marking Also's entry: %+v, %q", r, r.Also)
	}
	before := SeverityOf(r.Invariant, r.About, r.Also, r.AlsoAbout)
	r.MarkTimeOnly(lost, "m1", " (times only)", false)
	after := SeverityOf(r.Invariant, r.About, r.Also, r.AlsoAbout)
	if after.Rank != TimeOnly.Rank || before.Compare(after) >= 0 || r.Message != "m1 (times only)" {
		t.Fatalf("rank %d before, %d after marking (want %d, and before more severe); message %q", before.Rank, after.Rank, TimeOnly.Rank, r.Message)
	}
	if k := Key(r.Invariant, r.About, nil); k != lost+"\x00a\x00status.x\x00" {
		t.Errorf("key %q", k)
	}
}

// TestCompareFaultFreeFirst: of equal ranks, a schedule that needs no
// fault comes before one that does, before the own invariant's rank
// orders them; a rank still comes first.
func TestCompareFaultFreeFirst(t *testing.T) {
	faulted := Severity{Rank: 2, Own: 2, Faulted: true}
	free := Severity{Rank: 2, Own: 3}
	if free.Compare(faulted) >= 0 || faulted.Compare(free) <= 0 {
		t.Errorf("rank 2 without a fault vs rank 2 with one: %d, %d; want the fault-free first", free.Compare(faulted), faulted.Compare(free))
	}
	if worse := (Severity{Rank: 1, Own: 1, Faulted: true}); worse.Compare(free) >= 0 {
		t.Errorf("rank 1 with a fault vs rank 2 without: %d; want rank 1 first", worse.Compare(free))
	}
	if got := free.Compare(Severity{Rank: 2, Own: 2}); got <= 0 {
		t.Errorf("both fault-free: %d; want the own rank 2 first", got)
	}
}
