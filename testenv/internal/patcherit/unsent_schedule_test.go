package patcherit_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// TestNonStatusChangesUnsentSchedules: seeded random schedules of a
// patcher made WithNonStatusChangesUnsent (with or without a field owner
// and an API reader) changing spec, labels, annotations, finalizers and
// status in memory, flushing, retrying, adding and removing a finalizer,
// made again from a fresh or a stale copy, its object replaced by another
// version; another writer's writes (spec, status, labels, a finalizer, a
// delete) run between the steps or just before one of the patcher's
// requests; the answer of a status PATCH is lost after the server applied
// it (a reset), the other writer's write maybe made before the patcher
// reads back. The properties, checked on every call against the recorded
// wire (answers recorded before they are lost) and the object's history
// (every version, each answered to one of the two writers):
//
//  1. only the status is sent, locked at the resourceVersion in memory
//     (the base's); a main-resource PATCH only by AddFinalizer and
//     RemoveFinalizer, carrying only the finalizers;
//  2. nil exactly when the status was stored: one 200 to a status PATCH
//     that made a version (a 200 at the resourceVersion it was locked at
//     made none: a write the server's defaults undid, sent again after
//     its lost answer), whose status is what Status().Update of the
//     status in memory stores on a twin object; or no write at all when the status equals the
//     base's; an error only with no status stored, but
//     ErrWriteOutcomeUnknown after a lost answer, and NotFound when the
//     object was deleted after a lost answer; never a Conflict for a
//     stored write;
//  3. after a write the object in memory is the server's answer (after a
//     lost one, the read that settled it); after a
//     Flush with nothing to write it is the base when it had the base's
//     resourceVersion, else as it was; after a failed Flush, as it was;
//  4. no version ever holds a change made outside status in memory, nor
//     lacks the other writer's finalizer.
//
// On the plain Widget CRD, on the oracle's (status defaults: the server's
// answer differs from what was sent), and in apply mode (no twin: an apply
// is no Update; docs/apply.md's refusals count as errors with nothing
// stored). Reproduce one seed:
//
//	cd testenv && go test ./internal/patcherit -run 'TestNonStatusChangesUnsentSchedules/plain/seed-7$' -v
func TestNonStatusChangesUnsentSchedules(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 12
	}
	servers := []struct {
		name  string
		env   func(testing.TB) *testenv.Env
		apply bool // WithWriteMode(WriteApply)
	}{{"plain", env, false}, {"defaults", oracleEnv, false}, {"apply", env, true}}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			e := srv.env(t)
			var total unsentTally
			run := slices.Collect(func(yield func(uint64) bool) {
				for seed := range uint64(seeds) {
					if !yield(seed + 1) {
						return
					}
				}
			})
			for _, seed := range unsentFailedSeeds[srv.name] {
				if !slices.Contains(run, seed) {
					run = append(run, seed)
				}
			}
			for _, seed := range run {
				t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
					total.add(runUnsentSchedule(t, e, seed, srv.apply))
				})
			}
			// The schedules reach every outcome, or they prove little.
			t.Logf("%+v", total)
			if total.stored == 0 || total.noop == 0 || total.conflict == 0 || total.retried == 0 || total.gone == 0 || total.settled == 0 {
				t.Errorf("outcomes %+v: some never reached", total)
			}
		})
	}
}

// unsentFailedSeeds are the seeds (of -args 200 seeds, s91j) that failed,
// each run whatever the number of seeds: defaults 191, a Conflict for a
// stored write that removed status.phase, which the storage version
// defaults back (fixed: settle's lostHeld skips a field the write
// removes); the others failures of this test's own model (the caller's
// Update storing the finalizers emptied in memory; a Retry whose earlier
// attempt stored a write the defaults undid; 200s at the locked
// resourceVersion, which make no version).
var unsentFailedSeeds = map[string][]uint64{
	"plain":    {59},
	"defaults": {47, 59, 74, 98, 191},
	"apply":    {59},
}

// unsentRun is one schedule's state: the two writers, the history and the
// test's model of the patcher's base.
type unsentRun struct {
	t        *testing.T
	e        *testenv.Env
	r        *rand.Rand
	wire     *unsentWire
	c        client.Client // the patcher's client, recorded
	opts     []patcher.Option
	key      client.ObjectKey
	twin     client.ObjectKey
	p        *patcher.Patcher[*v1.Widget]
	baseRV   string                // the base's resourceVersion, "" when unknown
	versions map[string]*v1.Widget // every version of the object, by resourceVersion
	gone     bool
	afterRan bool // the other writer wrote after a lost answer, this step
	n        int
	apply    bool // apply mode: the twin's Update is no measure of it
	tally    unsentTally
}

// unsentTally counts the outcomes of a schedule's Flush and Retry calls.
type unsentTally struct {
	stored, noop, conflict, notFound int
	settled, unknown                 int // lost answers: stored (read back), ErrWriteOutcomeUnknown
	unknownAlone                     int // ErrWriteOutcomeUnknown with no other write after the lost answer
	refused                          int // apply mode: docs/apply.md's refusals
	retried                          int // Retry calls that stored after a Conflict
	gone                             int // schedules whose object was deleted
}

func (a *unsentTally) add(b unsentTally) {
	a.stored += b.stored
	a.noop += b.noop
	a.conflict += b.conflict
	a.notFound += b.notFound
	a.settled += b.settled
	a.unknown += b.unknown
	a.unknownAlone += b.unknownAlone
	a.refused += b.refused
	a.retried += b.retried
	a.gone += b.gone
}

func runUnsentSchedule(t *testing.T, e *testenv.Env, seed uint64, apply bool) unsentTally {
	u := &unsentRun{t: t, e: e, apply: apply, r: rand.New(rand.NewPCG(seed, 0x756e73656e74)), wire: &unsentWire{}, versions: map[string]*v1.Widget{}}
	u.c = unsentClient(t, e, u.wire)
	u.opts = []patcher.Option{patcher.WithNonStatusChangesUnsent()}
	if apply {
		u.opts = append(u.opts, patcher.WithWriteMode(patcher.WriteApply))
	}
	if apply || u.r.IntN(2) == 0 {
		u.opts = append(u.opts, patcher.WithFieldOwner("unsent-j"))
	}
	if u.r.IntN(2) == 0 {
		u.opts = append(u.opts, patcher.WithAPIReader(u.c))
	}
	u.key, u.twin = newWidget(t, e.Client), newWidget(t, e.Client)
	w := &v1.Widget{}
	if err := u.c.Get(ctx, u.key, w); err != nil {
		t.Fatal(err)
	}
	u.saw(w)
	u.renew(w)
	for step := 0; step < 14 && !u.gone; step++ {
		u.n, u.afterRan = step, false
		if u.r.IntN(4) == 0 {
			u.other()
		}
		if u.r.IntN(2) == 0 {
			u.armOther()
		}
		if u.r.IntN(4) == 0 {
			// The answer of the next status PATCH lost after the server
			// applied it, and maybe the other writer's write before the
			// patcher reads back.
			var after func()
			if u.r.IntN(2) == 0 {
				after = func() { u.afterRan = true; u.other() }
			}
			u.wire.armLoss(after)
		}
		u.ourStep()
	}
	u.checkHistory()
	if u.gone {
		u.tally.gone++
	}
	return u.tally
}

// saw records a version of the object.
func (u *unsentRun) saw(w *v1.Widget) {
	if w.ResourceVersion != "" {
		u.versions[w.ResourceVersion] = w.DeepCopy()
	}
}

// record takes every version the patcher's client was answered.
func (u *unsentRun) record(xs []exchange) {
	for _, x := range xs {
		if x.Code == http.StatusOK && !x.DryRun && strings.Contains(x.Path, "/widgets/"+u.key.Name) {
			u.saw(decodeWidget(u.t, x.Answer))
		}
	}
}

// renew makes the patcher again from w (a fresh or a stale copy).
func (u *unsentRun) renew(w *v1.Widget) {
	obj := w.DeepCopy()
	u.p = patcher.New(u.c, obj, u.opts...)
	if err := u.p.Err(); err != nil {
		u.t.Fatal(err)
	}
	u.baseRV = obj.ResourceVersion
}

// ourStep is one step of the patcher's writer.
func (u *unsentRun) ourStep() {
	obj := u.p.Object()
	switch k := u.r.IntN(11); {
	case k < 4:
		for range 1 + u.r.IntN(3) {
			u.outside(obj)
		}
		if u.r.IntN(4) != 0 {
			u.statusChange(&obj.Status)
		}
		u.flush("Flush")
		if u.r.IntN(4) == 0 {
			u.flush("Flush again")
		}
	case k < 7:
		u.retry()
	case k < 8:
		u.finalizer()
	case k < 9:
		// Made again from a fresh read or from a stale copy.
		fresh := &v1.Widget{}
		if err := u.e.Client.Get(ctx, u.key, fresh); err != nil {
			if apierrors.IsNotFound(err) {
				u.gone = true
				return
			}
			u.t.Fatal(err)
		}
		u.saw(fresh)
		u.renew(u.anyVersion(fresh))
	case k < 10:
		// The caller's own write of the object (r.Update), then changes
		// in memory and a Flush: the re-base of docs/patcher.md.
		u.ownUpdate(obj)
		u.outside(obj)
		u.statusChange(&obj.Status)
		u.flush("Flush after the caller's own Update")
	default:
		// The object replaced in place by another version of it, then
		// changed in memory.
		*obj = *u.anyVersion(obj).DeepCopy()
		u.outside(obj)
		if u.r.IntN(2) == 0 {
			u.statusChange(&obj.Status)
		}
		u.flush("Flush after the object was replaced")
	}
}

// anyVersion is w or, half the time, an older version of the object.
func (u *unsentRun) anyVersion(w *v1.Widget) *v1.Widget {
	if u.r.IntN(2) == 0 || len(u.versions) == 0 {
		return w
	}
	rvs := sortedRVs(u.versions)
	return u.versions[rvs[u.r.IntN(len(rvs))]]
}

// outside changes the object in memory outside status, each change marked
// "ours" so that the history shows it if it is ever stored.
func (u *unsentRun) outside(w *v1.Widget) {
	mark := fmt.Sprintf("ours-%d", u.n)
	switch u.r.IntN(9) {
	case 0:
		w.Spec.Size, w.Spec.Data = int32(1000+u.n), mark
	case 1:
		w.Labels = nil
	case 2:
		w.Labels = map[string]string{}
	case 3:
		if w.Labels == nil {
			w.Labels = map[string]string{}
		}
		w.Labels["ours"] = mark
	case 4:
		w.Annotations = map[string]string{"ours": mark}
	case 5:
		w.Annotations = nil
	case 6:
		w.Finalizers = append(w.Finalizers, "ours.test/mem")
	case 7:
		w.Finalizers = nil // drops the other writer's, in memory
	case 8:
		w.Spec.Labels = map[string]string{"ours": mark}
	}
}

// statusChange changes the status in memory: nil and empty values, and
// values equal to the current ones (no change).
func (u *unsentRun) statusChange(s *v1.WidgetStatus) {
	switch u.r.IntN(11) {
	case 0:
		s.Phase = fmt.Sprintf("p%d", u.r.IntN(3))
	case 1:
		s.Phase = ""
	case 2:
		s.Items = nil
	case 3:
		s.Items = []string{}
	case 4:
		s.Items = append(s.Items, fmt.Sprintf("i%d", u.n))
	case 5:
		s.Plan = nil
	case 6:
		s.Plan = &v1.WidgetPlan{}
	case 7:
		s.Plan = &v1.WidgetPlan{ID: fmt.Sprintf("x%d", u.r.IntN(2)), Steps: []string{}}
	case 8:
		s.Counters = nil
	case 9:
		s.Counters = map[string]int64{}
	case 10:
		s.Counters = map[string]int64{"ours": int64(u.r.IntN(3))}
	}
}
