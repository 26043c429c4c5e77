package patcherit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// runWriter is a writer of a running schedule.
type runWriter struct {
	oracleWriter
	c    client.Client
	ot   *oracleTransport
	lag  *lagClient
	opts []patcher.Option
}

// oracleRun is one schedule run on the server: its writers, its object,
// the object's history and every decision's record.
type oracleRun struct {
	t       testing.TB
	sched   oracleSchedule
	writers []*runWriter
	key     client.ObjectKey
	created *v1.Widget
	recs    []*decisionRec
	tokens  int64
	direct  client.Client // reads of a raw foreign decision
}

// runSchedule runs s on e against a new Widget and returns the run and
// the object's complete history after its creation, in order.
func runSchedule(t *testing.T, e *testenv.Env, s oracleSchedule) (*oracleRun, []*v1.Widget) {
	t.Helper()
	run := &oracleRun{t: t, sched: s}
	for _, w := range s.writers {
		c, ot, lag, opts := writerClient(t, e, w)
		run.writers = append(run.writers, &runWriter{oracleWriter: w, c: c, ot: ot, lag: lag, opts: opts})
	}
	w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: objectName(t), Namespace: "default",
		Annotations: map[string]string{lastApplied: "{}"}}, Spec: v1.WidgetSpec{Size: 1}}
	if err := e.Client.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	run.key = client.ObjectKeyFromObject(w)
	// As the server reads it back (the create's answer lacks the storage
	// version's defaults, which every later read holds).
	w = get(t, e.Client, run.key)
	if s.crowded {
		w = crowd(t, e, run.key)
	}
	if s.queue {
		w = fillSharedQueue(t, e, run.key)
	}
	if s.busy {
		w = crowdLater(t, e, run.key)
	}
	run.direct = e.Client
	run.created = w.DeepCopy()
	events := watchHistory(t, e, w)
	for _, round := range s.rounds {
		for _, st := range round.steps {
			if st.burst {
				run.foreign(st)
			}
		}
		ps := map[int]*patcher.Patcher[*v1.Widget]{}
		for _, i := range round.readers {
			rw := run.writers[i]
			p, err := patcher.Fetch(ctx, rw.c, run.key, &v1.Widget{}, rw.opts...)
			if err != nil {
				t.Fatalf("seed %d: w%d: Fetch: %v", s.seed, i, err)
			}
			ps[i] = p
		}
		for _, st := range round.steps {
			run.step(st, ps[st.writer])
		}
	}
	final := get(t, e.Client, run.key)
	return run, events(final.ResourceVersion)
}

func (run *oracleRun) newRec(writer int, spec decisionSpec, retry, foreign bool) *decisionRec {
	d := &decisionRec{id: len(run.recs), writer: writer, retry: retry, foreign: foreign, spec: spec}
	if spec.tokened {
		run.tokens++
		d.token = run.tokens
	}
	run.recs = append(run.recs, d)
	return d
}

// step runs one decision on p (read at the round's start), with its
// faults; a fault that needs another writer's write runs the foreign
// decision (a fresh Fetch and Flush) inside the transport.
func (run *oracleRun) step(st oracleStep, p *patcher.Patcher[*v1.Widget]) {
	rw := run.writers[st.writer]
	d := run.newRec(st.writer, st.spec, st.retry, false)
	rw.ot.arm(st.faults, func() error { run.foreign(st); return nil })
	if rw.lag != nil {
		rw.lag.arm(p.Object().DeepCopy(), rw.lagN)
	}
	dctx := context.WithValue(ctx, decisionKey{}, d)
	decideOnce := st.spec.mutate(st.writer, d.token)
	mutate := func(w *v1.Widget) error { d.runs++; return decideOnce(w) }
	var err error
	if st.retry {
		err = p.Retry(dctx, mutate)
	} else {
		_ = mutate(p.Object())
		err = p.Flush(dctx)
	}
	d.err, d.done = err, true
	rw.ot.arm(nil, nil)
	if rw.lag != nil {
		rw.lag.arm(nil, 0)
	}
}

// foreign makes st's foreign decision: writer foreignWriter fetches and
// flushes foreignSpec, its verdict checked like any other.
func (run *oracleRun) foreign(st oracleStep) {
	fw := run.writers[st.foreignWriter]
	fd := run.newRec(st.foreignWriter, st.foreignSpec, false, true)
	fctx := context.WithValue(ctx, decisionKey{}, fd)
	if st.raw {
		fd.runs++
		fd.err, fd.done = run.rawForeign(fctx, fw, st, fd.token), true
		return
	}
	fp, err := patcher.Fetch(fctx, fw.c, run.key, &v1.Widget{}, fw.opts...)
	if err == nil {
		fd.runs++
		_ = st.foreignSpec.mutate(st.foreignWriter, fd.token)(fp.Object())
		err = fp.Flush(fctx)
	}
	fd.err, fd.done = err, true
}

// watchHistory opens a watch on w's name from its creation and returns a
// function that collects every version up to the resourceVersion given:
// the server's complete history of the object.
func watchHistory(t *testing.T, e *testenv.Env, w *v1.Widget) func(until string) []*v1.Widget {
	t.Helper()
	wc, err := client.NewWithWatch(e.Config, client.Options{Scheme: e.Scheme, Mapper: e.Mapper})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	wi, err := wc.Watch(wctx, &v1.WidgetList{}, &client.ListOptions{Namespace: w.Namespace,
		FieldSelector: fields.OneTermEqualSelector("metadata.name", w.Name),
		Raw:           &metav1.ListOptions{ResourceVersion: w.ResourceVersion}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wi.Stop)
	return func(until string) []*v1.Widget {
		t.Helper()
		var out []*v1.Widget
		if until == w.ResourceVersion {
			return out
		}
		// A bound on a broken watch only, not on a measured time: the
		// events are on the server already.
		timeout := time.NewTimer(time.Minute)
		defer timeout.Stop()
		for {
			select {
			case ev, ok := <-wi.ResultChan():
				if !ok {
					t.Fatalf("the history's watch ended before resourceVersion %s", until)
				}
				if ev.Type != watch.Modified {
					t.Fatalf("the history's watch sent %s: %v", ev.Type, ev.Object)
				}
				v := ev.Object.(*v1.Widget)
				out = append(out, v)
				if v.ResourceVersion == until {
					return out
				}
			case <-timeout.C:
				t.Fatalf("the history's watch did not reach resourceVersion %s", until)
			}
		}
	}
}

// crowd makes ten Update managers of the object's status before the
// schedule (each keeps a counter of its own), so the schedule's writers
// are the eleventh and later: the server merges the oldest entries into
// ancient-changes in their writes' revisions. It returns the object after.
func crowd(t *testing.T, e *testenv.Env, key client.ObjectKey) *v1.Widget {
	t.Helper()
	for i := range 10 {
		p, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(fmt.Sprintf("crowd-%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		if p.Object().Status.Counters == nil {
			p.Object().Status.Counters = map[string]int64{}
		}
		p.Object().Status.Counters[fmt.Sprintf("crowd-%d", i)] = 1
		if err := p.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return get(t, e.Client, key)
}
