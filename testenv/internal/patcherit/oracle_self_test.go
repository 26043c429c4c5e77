package patcherit_test

import (
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// The oracle has teeth: on a real run whose verdicts all hold, each false
// verdict put in their place (a Conflict for a stored decision, nil for
// one not stored, ErrWriteOutcomeUnknown with no response lost) and each
// forged version (an item stored twice, another writer's counter changed)
// is reported; the run itself is not.
func TestOracleCatchesFalseVerdicts(t *testing.T) {
	e := oracleEnv(t)
	var run *oracleRun
	var history []*v1.Widget
	for seed := uint64(1); run == nil && seed <= 20; seed++ {
		r, h := runSchedule(t, e, newSchedule(seed))
		if len(r.check(h)) == 0 && slices.ContainsFunc(r.recs, func(d *decisionRec) bool { return d.token != 0 && apierrors.IsConflict(d.err) }) {
			run, history = r, h
		}
	}
	if run == nil {
		t.Fatal("no seed of 1–20 holds both verdicts and a Conflict")
	}
	conflict := apierrors.NewConflict(schema.GroupResource{Group: v1.GroupVersion.Group, Resource: "widgets"}, "x", fmt.Errorf("forged"))
	unknown := fmt.Errorf("forged: %w", patcher.ErrWriteOutcomeUnknown)
	tried := map[string]int{}
	for _, d := range run.recs {
		lost := slices.ContainsFunc(d.sends, func(s send) bool { return lostResponse(s.fault) })
		var forged []error
		switch {
		case d.token != 0 && d.err == nil:
			forged = append(forged, conflict)
			tried["Conflict for a stored decision"]++
		case d.token != 0 && apierrors.IsConflict(d.err):
			forged = append(forged, nil)
			tried["nil for a decision not stored"]++
		}
		if !lost {
			forged = append(forged, unknown)
			tried["Unknown with no response lost"]++
		}
		for _, f := range forged {
			was := d.err
			d.err = f
			if !slices.ContainsFunc(run.check(history), func(v violation) bool { return v.decision == d }) {
				t.Errorf("decision %d: the verdict %v (the truth: %v) was not reported", d.id, f, was)
			}
			d.err = was
		}
	}
	if len(tried) != 3 {
		t.Fatalf("tried %v: want every kind of false verdict", tried)
	}
	last := history[len(history)-1]
	forge := func(name string, f func(*v1.Widget)) {
		was := last.DeepCopy()
		f(last)
		if len(run.check(history)) == 0 {
			t.Errorf("%s: not reported", name)
		}
		history[len(history)-1] = was
		last = was
	}
	forge("an item stored twice", func(w *v1.Widget) { w.Status.Items = append(w.Status.Items, "w0-t0", "w0-t0") })
	maker := -1
	for _, d := range run.recs {
		if slices.ContainsFunc(d.sends, func(s send) bool { return s.rv == last.ResourceVersion && s.code/100 == 2 }) {
			maker = d.writer
		}
	}
	other := fmt.Sprintf("w%d", (maker+1)%len(run.writers))
	forge("another writer's counter changed", func(w *v1.Widget) {
		if w.Status.Counters == nil {
			w.Status.Counters = map[string]int64{}
		}
		w.Status.Counters[other] = -1
	})
	if len(run.check(history)) != 0 {
		t.Fatalf("the run itself reported: %v", run.check(history))
	}
}
