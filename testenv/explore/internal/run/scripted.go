package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/informers"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"
	servedapi "github.com/statuspatch/statuspatch/testenv/explore/internal/served"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/violation"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Scripted is a Run driven by hand, with no server, reconciler or cache:
// a test of a judge scripts the versions a schedule's steps record, as
// the explorer's client records them, and reads what the judges made of
// them, or what the state hash makes of what the caches were served.
// The tests of "no lost write", "no stuck finalizer" and the state hash
// in the explorer's package use it instead of Run's fields.
type Scripted struct{ r *Run }

// NewScripted is a schedule of ex (nil: a scenario of nothing), with
// nothing recorded yet.
func NewScripted(ex Explorer) *Scripted { return &Scripted{r: New(ex, nil)} }

// Step runs do (nil: nothing) as the next chosen step, of item it: its
// records are that step's writes, made having seen seen (each object's
// newest version seen, from 0; nil: none), and it ends with result.
func (s *Scripted) Step(it schedule.Item, result string, seen map[book.Key]int, do func()) {
	t := &s.r.Trace
	cur := &StepState{Step: outcome.Step{Index: len(t.Steps) + 1, Result: result}, Seen: map[book.Key]int{}}
	for k, v := range seen {
		cur.Seen[k] = v
	}
	t.Cur = cur
	if do != nil {
		do()
	}
	t.Steps = append(t.Steps, cur.Step)
	t.Chosen = append(t.Chosen, schedule.Chosen{It: it})
	t.Cur = nil
}

// Record records obj (nil: absent) as k's newest version, at
// resourceVersion rv, and the invariants judge it: inside Step, as that
// step's write when it is a new version (its writer, History.By, as
// the explorer's client notes it); outside, as the scenario's.
func (s *Scripted) Record(k book.Key, obj map[string]any, rv string) {
	h := s.r.Book.Record(k, obj, rv)
	if cur := s.r.Trace.Cur; cur != nil && s.r.Book.LastChanged() {
		h.By[h.Newest()] = cur.Step.Index
	}
}

// Steps is the number of steps run so far (Step).
func (s *Scripted) Steps() int { return len(s.r.Trace.Steps) }

// CheckFinalizers judges "no stuck finalizer" on the steps run, the
// steady round beginning at step index first (from 0), for objects of
// kinds (the reconcilers' For kinds).
func (s *Scripted) CheckFinalizers(first int, kinds []schema.GroupVersionKind) {
	s.r.Checks.CheckFinalizers(s.r.Trace.Judged(), first, kinds)
}

// Failed is what the schedule broke first, nil for nothing.
func (s *Scripted) Failed() *violation.Record { return s.r.Trace.Failed }

// Saw records that the process's informer of rep served version v (from
// 0) of k.
func (s *Scripted) Saw(k book.Key, rep servedapi.Rep, v int) { s.r.Cache.Model.View.Saw(k, rep, v) }

// LeaderChanged is a standby manager taking over: its informers have
// served nothing yet, and what the old leader's were served is carried.
func (s *Scripted) LeaderChanged() { s.r.Cache.Model.View.HandOver(nil) }

// Floored is a cold restart's floor: the cache serves k from version v
// (from 0) on.
func (s *Scripted) Floored(k book.Key, v int) { s.r.Cache.Model.Floor[k] = v }

// Started records that the process's second cache (internal/served)
// started an informer that listed q.
func (s *Scripted) Started(q servedapi.Request) {
	if s.r.Proc == nil {
		s.r.Proc = servedapi.New(informers.ServedBook{Book: s.r.Book}, nil)
	}
	s.r.Proc.NoteList(q, nil)
}

// StateHash is the hash of the state before a chosen step, left chosen
// steps left (Run.StateHash).
func (s *Scripted) StateHash(left int) uint64 { return s.r.StateHash(left) }
