package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/schedule"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A seed names the chosen steps of a schedule (internal/schedule); the
// setup state gives it the scenario's names.

// item is a queued reconcile, action or delivery (schedule.Item).
type item = schedule.Item

// scriptStep is a chosen step as a replay runs it (schedule.Chosen).
type scriptStep = schedule.Chosen

// crashPoint says where a step crashes (schedule.Crash).
type crashPoint = schedule.Crash

func (st *setupState) itemID(it item) string                 { return schedule.ID(st, it) }
func (st *setupState) formatSeed(script []scriptStep) string { return schedule.Format(st, script) }
func (st *setupState) parseSeed(seed string) ([]scriptStep, error) {
	return schedule.Parse(st, seed)
}

// The scenario's names, as a seed reads them (schedule.Names).

func (st *setupState) ReconcilerName(rec int) string        { return st.s.Reconcilers[rec].Name }
func (st *setupState) ActionName(action int) string         { return st.s.Actions[action].Name }
func (st *setupState) Kind(rec int) schema.GroupVersionKind { return st.forRun.ForKinds[rec] }

func (st *setupState) Reconciler(name string) int {
	for j, rc := range st.s.Reconcilers {
		if rc.Name == name {
			return j
		}
	}
	return -1
}

func (st *setupState) Action(name string) int {
	for j, a := range st.s.Actions {
		if a.Name == name {
			return j
		}
	}
	return -1
}
