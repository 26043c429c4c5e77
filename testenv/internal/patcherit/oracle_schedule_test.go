package patcherit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// clientKind is how a writer of the oracle reaches the server.
type clientKind int

const (
	clientPlain   clientKind = iota // client.New: no watch, history by exact lists
	clientWatcher                   // client.NewWithWatch and WithWatcher
	clientManager                   // ForManager on a manager exposing its config
)

// lagKind is how a plain writer's reads lag.
type lagKind int

const (
	lagNone   lagKind = iota
	lagReader         // WithAPIReader(a reader serving the base for 1–3 reads)
	lagCache          // the client itself serves the base (a cache), no API reader
)

// decisionSpec is what one decision does to the status. A tokened
// decision sets its writer's counter (counters["w<i>"]) to its unique
// token and may append an item and add a set value named after it; every
// decision may set shared values (phase, observedGeneration,
// counters["shared"], a shared condition or set value) or remove its own
// earlier item, set value or condition.
type decisionSpec struct {
	tokened                            bool
	item, step                         bool
	removeItem, removeStep, removeCond bool
	removePhase                        bool
	phase                              string
	gen, shared                        int64
	condType                           string
	condStatus                         metav1.ConditionStatus
	sharedStep                         string
	// inc: counters["sum"] = the value read + 1, a decision derived from
	// the base (two from one base must count two: issue 49).
	inc bool
	// takeShared removes the shared condition Ready and counters["shared"]
	// and nothing else: a removal-only decision, which stamps no
	// managedFields entry (issue 71's traps).
	takeShared bool
}

func (s decisionSpec) String() string {
	var b []string
	add := func(on bool, f string, a ...any) {
		if on {
			b = append(b, fmt.Sprintf(f, a...))
		}
	}
	add(s.tokened, "token")
	add(s.item, "+item")
	add(s.step, "+step")
	add(s.removeItem, "-item")
	add(s.removeStep, "-step")
	add(s.removeCond, "-cond")
	add(s.removePhase, "-phase")
	add(s.phase != "", "phase=%s", s.phase)
	add(s.gen != 0, "gen=%d", s.gen)
	add(s.shared != 0, "shared=%d", s.shared)
	add(s.condType != "", "%s=%s", s.condType, s.condStatus)
	add(s.sharedStep != "", "step %s", s.sharedStep)
	add(s.inc, "sum+1")
	add(s.takeShared, "-shared")
	return "{" + strings.Join(b, " ") + "}"
}

// mutate applies the decision of writer i with token tok to w.
func (s decisionSpec) mutate(i int, tok int64) func(*v1.Widget) error {
	own := fmt.Sprintf("w%d-", i)
	return func(w *v1.Widget) error {
		st := &w.Status
		if s.tokened {
			if st.Counters == nil {
				st.Counters = map[string]int64{}
			}
			st.Counters[fmt.Sprintf("w%d", i)] = tok
		}
		if s.removeItem {
			if k := slices.IndexFunc(st.Items, func(it string) bool { return strings.HasPrefix(it, own) }); k >= 0 {
				st.Items = slices.Delete(slices.Clone(st.Items), k, k+1)
			}
		}
		if s.item {
			st.Items = append(st.Items, fmt.Sprintf("%st%d", own, tok))
		}
		if s.step || s.removeStep || s.sharedStep != "" {
			if st.Plan == nil {
				st.Plan = &v1.WidgetPlan{}
			}
			steps := slices.Clone(st.Plan.Steps)
			if k := slices.IndexFunc(steps, func(it string) bool { return strings.HasPrefix(it, own) }); s.removeStep && k >= 0 {
				steps = slices.Delete(steps, k, k+1)
			}
			if s.step {
				steps = append(steps, fmt.Sprintf("%ss%d", own, tok))
			}
			if s.sharedStep != "" && !slices.Contains(steps, s.sharedStep) {
				steps = append(steps, s.sharedStep)
			}
			st.Plan.Steps = steps
		}
		if s.removePhase {
			st.Phase = ""
		}
		if s.phase != "" {
			st.Phase = s.phase
		}
		if s.gen != 0 {
			st.ObservedGeneration = s.gen
		}
		if s.shared != 0 {
			if st.Counters == nil {
				st.Counters = map[string]int64{}
			}
			st.Counters["shared"] = s.shared
		}
		if s.inc {
			if st.Counters == nil {
				st.Counters = map[string]int64{}
			}
			st.Counters["sum"]++
		}
		if s.removeCond {
			meta.RemoveStatusCondition(&st.Conditions, fmt.Sprintf("W%d", i))
		}
		if s.takeShared {
			meta.RemoveStatusCondition(&st.Conditions, "Ready")
			delete(st.Counters, "shared")
		}
		if s.condType != "" {
			typ := s.condType
			if typ == "own" {
				typ = fmt.Sprintf("W%d", i)
			}
			meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: typ, Status: s.condStatus, Reason: "Oracle"})
		}
		return nil
	}
}

// oracleStep is one decision of a round; faults hit its status PATCHes in
// order, and a fault that needs another writer's write runs foreign, a
// decision of writer foreignWriter, there.
type oracleStep struct {
	writer        int
	retry         bool
	spec          decisionSpec
	faults        []plannedFault
	foreignWriter int
	foreignSpec   decisionSpec
	burst         bool // the foreign decision is also made before the round's reads (the same second)
	raw           bool // the foreign decision is a plain locked PATCH, not a patcher's (another process's)
	v2            bool // raw, through apiVersion v2: its writer's entry of v2 (issue 71)
}

// oracleRound: the participants read the object (in order), then decide
// and write one after another, each on what it read.
type oracleRound struct {
	readers []int
	steps   []oracleStep
}

type oracleSchedule struct {
	seed    uint64
	writers []oracleWriter
	rounds  []oracleRound
	// crowded: ten other Update managers wrote the status first.
	crowded bool
	// Issue 71's traps (newTrapSchedule): queue, the status starts with
	// the shared condition Ready and counters["shared"], which
	// removal-only decisions take; busy, ten Update managers dated after
	// every write (the cap merges each new entry, a dry run's too, into
	// ancient-changes).
	queue, busy bool
}

func (s oracleSchedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d:", s.seed)
	if s.crowded {
		b.WriteString(" (ten managers first)")
	}
	if s.queue {
		b.WriteString(" (a shared queue)")
	}
	if s.busy {
		b.WriteString(" (ten managers dated later)")
	}
	for i, w := range s.writers {
		fmt.Fprintf(&b, " w%d=%s", i, w)
	}
	for i, r := range s.rounds {
		fmt.Fprintf(&b, "\n  round %d, read by %v:", i, r.readers)
		for _, st := range r.steps {
			call := "Flush"
			if st.retry {
				call = "Retry"
			}
			fmt.Fprintf(&b, "\n    w%d %s %s", st.writer, call, st.spec)
			if len(st.faults) > 0 {
				var fs []string
				for _, f := range st.faults {
					fs = append(fs, faultName(f))
				}
				fmt.Fprintf(&b, " faults [%s] (foreign: w%d %s, burst %v, raw %v, v2 %v)", strings.Join(fs, "; "), st.foreignWriter, st.foreignSpec, st.burst, st.raw, st.v2)
			}
		}
	}
	return b.String()
}

// newSchedule draws a schedule from seed: 2–4 writers, 2–4 rounds.
func newSchedule(seed uint64) oracleSchedule {
	r := rand.New(rand.NewPCG(seed, 0x0a11ce))
	bursts := rand.New(rand.NewPCG(seed, 0xb0057)) // a stream of its own: r's schedules stay as they were
	// The server's transformations and the clients issue 49 added, from a
	// stream of their own too.
	env := rand.New(rand.NewPCG(seed, 0x1549))
	tokens := rand.New(rand.NewPCG(seed, 0x7043)) // issue 71's write token: a stream of its own
	s := oracleSchedule{seed: seed, crowded: env.IntN(4) == 0}
	n := 2 + r.IntN(3)
	for i := range n {
		w := oracleWriter{mode: patcher.WriteMode(r.IntN(3)), client: clientKind(r.IntN(3))}
		switch r.IntN(3) {
		case 0:
			w.manager = "oracle-shared"
		case 1:
			w.manager = fmt.Sprintf("oracle-w%d", i)
		}
		if w.mode != patcher.WriteMergePatch && w.manager == "" {
			w.manager = "oracle-shared" // apply needs a field owner
		}
		if w.mode == patcher.WriteApplyWithoutLock {
			w.manager = fmt.Sprintf("oracle-w%d", i) // only for fields this manager alone owns (docs/apply.md)
		}
		if w.client == clientPlain {
			w.lag = lagKind(r.IntN(3))
			w.lagN = 1 + r.IntN(3)
		}
		w.dropsCtx = w.client != clientManager && env.IntN(5) == 0
		w.strips = w.client == clientPlain && w.lag == lagNone && env.IntN(3) == 0
		w.proxied = env.IntN(5) == 0
		w.token = drawToken(tokens)
		s.writers = append(s.writers, w)
	}
	for range 2 + r.IntN(3) {
		readers := r.Perm(n)[:1+r.IntN(n)]
		round := oracleRound{readers: readers}
		for k, i := range r.Perm(len(readers)) {
			st := oracleStep{writer: readers[i], retry: r.IntN(2) == 0, spec: drawSpec(r, s.writers[readers[i]])}
			if k > 0 && r.IntN(2) == 0 && s.writers[st.writer].mode != patcher.WriteApplyWithoutLock {
				st.spec = supersetOf(r, round.steps[k-1].spec)
			}
			if r.IntN(5) < 2 {
				for range 1 + r.IntN(2) {
					st.faults = append(st.faults, oracleFaults[r.IntN(len(oracleFaults))])
				}
				st.foreignWriter = (st.writer + 1 + r.IntN(n-1)) % n
				st.foreignSpec = overlapSpec(r, st.spec, s.writers[st.foreignWriter])
				st.burst = bursts.IntN(2) == 0
			}
			if s.writers[st.writer].mode != patcher.WriteApplyWithoutLock && env.IntN(4) == 0 {
				st.spec.inc = true
			}
			if s.writers[st.writer].proxied && env.IntN(2) == 0 {
				st.faults = append([]plannedFault{{kind: faultProxyResend, after: true}}, st.faults...)
			}
			round.steps = append(round.steps, st)
		}
		s.rounds = append(s.rounds, round)
	}
	return s
}

var (
	phases      = []string{"Ready", "Pending"}
	sharedSteps = []string{"a", "b"}
	condTypes   = []string{"Ready", "Synced", "own"}
)

// drawSpec draws a decision for w. A writer without the lock decides only
// its own fields (the only use docs/apply.md allows it); a bare decision
// (no token) sets shared values only.
func drawSpec(r *rand.Rand, w oracleWriter) decisionSpec {
	s := decisionSpec{tokened: true}
	if w.mode == patcher.WriteApplyWithoutLock {
		s.step = r.IntN(2) == 0
		s.removeStep = r.IntN(4) == 0
		s.removeCond = r.IntN(4) == 0
		if r.IntN(2) == 0 {
			s.condType, s.condStatus = "own", conditionStatus(r)
		}
		return s
	}
	s.tokened = r.IntN(3) != 0
	s.item = s.tokened && r.IntN(2) == 0
	s.step = s.tokened && r.IntN(3) == 0
	s.removeItem = r.IntN(5) == 0
	s.removeStep = r.IntN(6) == 0
	s.removeCond = r.IntN(6) == 0
	drawShared(r, &s)
	if !s.tokened && s.phase == "" && s.gen == 0 && s.shared == 0 && s.condType == "" && s.sharedStep == "" {
		s.phase = phases[0]
	}
	return s
}

func drawShared(r *rand.Rand, s *decisionSpec) {
	if r.IntN(2) == 0 {
		s.phase = phases[r.IntN(len(phases))]
	} else if r.IntN(8) == 0 {
		s.removePhase = true
	}
	if r.IntN(3) == 0 {
		s.gen = 1 + r.Int64N(2)
	}
	if r.IntN(3) == 0 {
		s.shared = 1 + r.Int64N(2)
	}
	if r.IntN(2) == 0 {
		s.condType, s.condStatus = condTypes[r.IntN(len(condTypes))], conditionStatus(r)
	}
	if r.IntN(3) == 0 {
		s.sharedStep = sharedSteps[r.IntN(len(sharedSteps))]
	}
}

func conditionStatus(r *rand.Rand) metav1.ConditionStatus {
	return []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse}[r.IntN(2)]
}

// overlapSpec draws another writer's decision that overlaps d: a bare
// subset of its shared values, the same shared values with a token of its
// own, a superset, or a disjoint one.
func overlapSpec(r *rand.Rand, d decisionSpec, w oracleWriter) decisionSpec {
	if w.mode == patcher.WriteApplyWithoutLock {
		return drawSpec(r, w)
	}
	shared := decisionSpec{phase: d.phase, gen: d.gen, shared: d.shared, sharedStep: d.sharedStep, removePhase: d.removePhase}
	if d.condType != "own" {
		shared.condType, shared.condStatus = d.condType, d.condStatus
	}
	switch r.IntN(4) {
	case 0: // a bare subset: some of the shared values, no token
		sub := decisionSpec{}
		if r.IntN(2) == 0 {
			sub.phase, sub.removePhase = shared.phase, shared.removePhase
		}
		if r.IntN(2) == 0 {
			sub.gen = shared.gen
		}
		if r.IntN(2) == 0 {
			sub.condType, sub.condStatus = shared.condType, shared.condStatus
		}
		if r.IntN(2) == 0 {
			sub.sharedStep = shared.sharedStep
		}
		if sub.phase == "" && !sub.removePhase && sub.gen == 0 && sub.condType == "" && sub.sharedStep == "" {
			sub.phase = phases[0]
		}
		return sub
	case 1: // the same shared values, its own token
		shared.tokened = true
		return shared
	case 2: // a superset
		shared.tokened, shared.item = true, true
		if shared.gen == 0 {
			shared.gen = 1 + r.Int64N(2)
		}
		if shared.condType == "" {
			shared.condType, shared.condStatus = condTypes[r.IntN(2)], conditionStatus(r)
		}
		return shared
	}
	return decisionSpec{tokened: true, item: r.IntN(2) == 0, condType: "own", condStatus: conditionStatus(r)}
}

// supersetOf draws a decision holding d's shared values and a token of its
// own: the decision an earlier write in the round is a subset of.
func supersetOf(r *rand.Rand, d decisionSpec) decisionSpec {
	s := decisionSpec{tokened: true, item: r.IntN(2) == 0, step: r.IntN(3) == 0,
		phase: d.phase, gen: d.gen, shared: d.shared, sharedStep: d.sharedStep, removePhase: d.removePhase}
	if d.condType != "own" {
		s.condType, s.condStatus = d.condType, d.condStatus
	}
	return s
}
