package patcherit_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
)

// verdict is the class of a decision's error.
type verdict int

const (
	verdictNil verdict = iota
	verdictConflict
	verdictUnknown
	verdictNothingSent // an error the docs say stores nothing (sent or not)
	verdictOther
)

var verdictNames = [...]string{"nil", "Conflict", "Unknown", "nothing sent", "other"}

func classify(err error) verdict {
	switch {
	case err == nil:
		return verdictNil
	case errors.Is(err, patcher.ErrWriteOutcomeUnknown):
		return verdictUnknown
	case apierrors.IsConflict(err):
		return verdictConflict
	case errors.Is(err, patcher.ErrApplyCannotRemove), errors.Is(err, patcher.ErrStaleCache),
		errors.Is(err, patcher.ErrInvalidCondition), errors.Is(err, patcher.ErrInvalidInput),
		errors.Is(err, patcher.ErrNonStatusChange), errors.Is(err, patcher.ErrPendingChanges):
		return verdictNothingSent
	}
	return verdictOther
}

// violation is one verdict the server's history contradicts.
type violation struct {
	decision *decisionRec
	what     string
}

// check holds every verdict of run against the history (every version
// after the creation, in order). The server's answers, recorded by each
// writer's transport before any fault hid them, say which request made
// each version; the tokens corroborate. The rules are the docs' (the
// error table of docs/patcher.md):
//
//   - nil: the decision stored exactly once; a decision without a token
//     may also have sent nothing that could be stored (a no-op Flush, a
//     refused send, a Retry whose last mutate changed nothing), but not
//     after one run of its decision when a response was lost, nor when
//     it increments the sum (values another writer stored prove
//     nothing: issue 49, two increments from one base counted once);
//   - a Conflict: not stored;
//   - ErrWriteOutcomeUnknown: stored at most once, never a Conflict, and
//     only for a decision one of whose responses was lost, or whose
//     every 409 is settled (a client that sends on a context of its own,
//     a patcher given WithResendingIntermediary);
//   - an error that sends nothing: not stored;
//   - any error: stored at most once;
//   - no write changes another writer's counter, removes another writer's
//     item, set value or condition, or changes a field its decision does
//     not touch; no item is stored twice.
func (run *oracleRun) check(history []*v1.Widget) []violation {
	var out []violation
	bad := func(d *decisionRec, f string, a ...any) {
		out = append(out, violation{decision: d, what: fmt.Sprintf(f, a...)})
	}
	// Which send made each version: the first 2xx answer carrying its
	// resourceVersion (a later one is a no-op that changed nothing).
	maker := map[string]*decisionRec{}
	first := map[string]int64{}
	stored := map[*decisionRec]int{}
	inHistory := map[string]bool{}
	for _, v := range history {
		inHistory[v.ResourceVersion] = true
	}
	for _, d := range run.recs {
		for _, s := range d.sends {
			if s.code/100 != 2 || s.rv == "" || s.rv == run.created.ResourceVersion {
				continue
			}
			if !inHistory[s.rv] {
				bad(d, "the server answered resourceVersion %s, which the history lacks", s.rv)
				continue
			}
			if f, ok := first[s.rv]; !ok || s.seq < f {
				first[s.rv], maker[s.rv] = s.seq, d
			}
		}
	}
	prev := run.created
	for _, v := range history {
		d := maker[v.ResourceVersion]
		if d == nil {
			bad(nil, "version %s was made by no recorded write", v.ResourceVersion)
			prev = v
			continue
		}
		// A version whose status is the one before (a second send of an
		// apply without the lock, which client-go resends on its own:
		// the server stores the storage version's defaults it had only
		// read before) stores nothing of the decision again.
		if stored[d] == 0 || !equality.Semantic.DeepEqual(prev.Status, v.Status) {
			stored[d]++
		}
		run.checkVersion(d, prev, v, bad)
		prev = v
	}
	for _, d := range run.recs {
		run.checkVerdict(d, stored[d], history, bad)
	}
	return out
}

// checkVersion holds that version v, made by d from prev, kept every other
// writer's own values and stored no item twice.
func (run *oracleRun) checkVersion(d *decisionRec, prev, v *v1.Widget, bad func(*decisionRec, string, ...any)) {
	for j := range run.writers {
		if j == d.writer {
			continue
		}
		key, own, typ := fmt.Sprintf("w%d", j), fmt.Sprintf("w%d-", j), fmt.Sprintf("W%d", j)
		if a, b := prev.Status.Counters[key], v.Status.Counters[key]; a != b {
			bad(d, "version %s changed %s's counter from %d to %d", v.ResourceVersion, key, a, b)
		}
		for _, it := range prev.Status.Items {
			if strings.HasPrefix(it, own) && !slices.Contains(v.Status.Items, it) {
				bad(d, "version %s removed %s's item %s", v.ResourceVersion, key, it)
			}
		}
		for _, it := range steps(prev) {
			if strings.HasPrefix(it, own) && !slices.Contains(steps(v), it) {
				bad(d, "version %s removed %s's set value %s", v.ResourceVersion, key, it)
			}
		}
		if c := meta.FindStatusCondition(prev.Status.Conditions, typ); c != nil {
			if n := meta.FindStatusCondition(v.Status.Conditions, typ); n == nil || n.Status != c.Status {
				bad(d, "version %s changed %s's condition %s", v.ResourceVersion, key, typ)
			}
		}
	}
	if a, b := prev.Status.Counters["sum"], v.Status.Counters["sum"]; d.spec.inc && b != a+1 || !d.spec.inc && b != a {
		bad(d, "version %s changed the sum from %d to %d (its decision %s)", v.ResourceVersion, a, b, d.spec)
	}
	for _, f := range outside(d, prev, v) {
		bad(d, "version %s changed %s, which its decision %s does not touch", v.ResourceVersion, f, d.spec)
	}
	for _, it := range v.Status.Items {
		if countOf(v.Status.Items, it) > 1 {
			bad(d, "version %s holds item %s %d times", v.ResourceVersion, it, countOf(v.Status.Items, it))
			break
		}
	}
}

func steps(w *v1.Widget) []string {
	if w.Status.Plan == nil {
		return nil
	}
	return w.Status.Plan.Steps
}

// checkVerdict holds d's verdict against the number of versions it made.
func (run *oracleRun) checkVerdict(d *decisionRec, n int, history []*v1.Widget, bad func(*decisionRec, string, ...any)) {
	if d.token != 0 {
		key, prev, seen := fmt.Sprintf("w%d", d.writer), run.created, 0
		for _, v := range history {
			if v.Status.Counters[key] == d.token && prev.Status.Counters[key] != d.token {
				seen++
			}
			prev = v
		}
		if (seen > 0) != (n > 0) {
			bad(d, "the oracle's records disagree: %d versions by its requests, its token stored %d times", n, seen)
		}
	}
	lost := slices.ContainsFunc(d.sends, func(s send) bool { return lostResponse(s.fault) })
	switch v := classify(d.err); {
	case !d.done:
		bad(d, "never ran")
	case n > 1:
		bad(d, "%s (%v): stored %d times", verdictNames[v], d.err, n)
	case v == verdictNil && n != 1 && (d.token != 0 || d.spec.inc || lost) && d.runs <= 1:
		bad(d, "nil: stored %d times", n)
	case v == verdictConflict && n != 0:
		bad(d, "a Conflict (%v): stored", d.err)
	case v == verdictUnknown && apierrors.IsConflict(d.err):
		bad(d, "ErrWriteOutcomeUnknown that is also a Conflict: %v", d.err)
	case v == verdictUnknown && !lost && !run.writers[d.writer].dropsCtx && !run.writers[d.writer].proxied:
		bad(d, "ErrWriteOutcomeUnknown with no response lost: %v", d.err)
	case v == verdictNothingSent && n != 0:
		bad(d, "an error that sends nothing (%v): stored", d.err)
	}
}

// oracleStats counts verdicts by write mode and environment.
type oracleStats struct {
	mu        sync.Mutex
	schedules int
	byKind    map[string]*[len(verdictNames)]int
	lost      map[string]int // decisions one of whose responses was lost
	// byToken and lostByToken are the same by whether the writer wrote
	// with the write token (and a watcher: "token, watcher").
	byToken     map[string]*[len(verdictNames)]int
	lostByToken map[string]int
}

func (s *oracleStats) add(run *oracleRun) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKind == nil {
		s.byKind, s.lost = map[string]*[len(verdictNames)]int{}, map[string]int{}
		s.byToken, s.lostByToken = map[string]*[len(verdictNames)]int{}, map[string]int{}
	}
	s.schedules++
	for _, d := range run.recs {
		w := run.writers[d.writer]
		k := w.mode.String() + " | " + environment(run, w.oracleWriter)
		if s.byKind[k] == nil {
			s.byKind[k] = &[len(verdictNames)]int{}
		}
		s.byKind[k][classify(d.err)]++
		tk := tokenKind(w.oracleWriter)
		if s.byToken[tk] == nil {
			s.byToken[tk] = &[len(verdictNames)]int{}
		}
		s.byToken[tk][classify(d.err)]++
		if slices.ContainsFunc(d.sends, func(s send) bool { return lostResponse(s.fault) }) {
			s.lost[k]++
			s.lostByToken[tk]++
		}
	}
}

// environment names what stands between w and the server's plain
// answers: a client whose sends cannot be counted, a cache that lags or
// transforms, an object with ten other managers first.
func environment(run *oracleRun, w oracleWriter) string {
	var env []string
	if w.dropsCtx {
		env = append(env, "own context")
	}
	if w.proxied {
		env = append(env, "resending proxy")
	}
	switch {
	case w.strips:
		env = append(env, "transforming cache")
	case w.lag != lagNone:
		env = append(env, "lagging reads")
	}
	if w.token {
		env = append(env, "write token")
	}
	if run.sched.crowded {
		env = append(env, "ten managers first")
	}
	if run.sched.busy {
		env = append(env, "ten managers dated later")
	}
	if run.sched.queue {
		env = append(env, "a shared queue")
	}
	if len(env) == 0 {
		return "seen client, plain reads"
	}
	return strings.Join(env, ", ")
}

// table is the verdicts as a Markdown table, one row per mode and client.
func (s *oracleStats) table() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "%d schedules\n\n| mode | environment | decisions | nil | Conflict | Unknown | nothing sent | other | a response lost | Unknown rate (of all; of those with a response lost) |\n|---|---|---|---|---|---|---|---|---|---|\n", s.schedules)
	var total [len(verdictNames)]int
	lost := 0
	for _, k := range slices.Sorted(maps.Keys(s.byKind)) {
		c := s.byKind[k]
		for i := range c {
			total[i] += c[i]
		}
		lost += s.lost[k]
		fmt.Fprintf(&b, "| %s | %s |\n", k, row(c[:], s.lost[k]))
	}
	fmt.Fprintf(&b, "| all | all | %s |\n", row(total[:], lost))
	for _, k := range slices.Sorted(maps.Keys(s.byToken)) {
		fmt.Fprintf(&b, "| all | %s | %s |\n", k, row(s.byToken[k][:], s.lostByToken[k]))
	}
	return b.String()
}

// tokenKind groups writers by the write token and, with it, whether a
// configured watcher reads the history (issue 71's goal: 0 % Unknown).
func tokenKind(w oracleWriter) string {
	switch {
	case !w.token:
		return "without the write token"
	case w.mode == patcher.WriteApplyWithoutLock:
		return "write token given, no lock (none sent)"
	case w.client == clientWatcher || w.client == clientManager:
		return "write token, watcher"
	}
	return "write token, no watcher"
}

func row(c []int, lost int) string {
	n := 0
	for _, x := range c {
		n += x
	}
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	return fmt.Sprintf("%d | %d | %d | %d | %d | %d | %d | %.1f%%; %.1f%%", n, c[0], c[1], c[2], c[3], c[4], lost,
		pct(c[verdictUnknown], n), pct(c[verdictUnknown], lost))
}

// outside lists what version v changed from prev, among the values of
// other writers and the shared ones, that d's decision does not touch:
// another writer's value put back or dropped, or a value from nowhere.
// (A writer's own values are its own business: an apply without the lock
// through a lagging reader may put back its own.)
func outside(d *decisionRec, prev, v *v1.Widget) []string {
	s, a, b := d.spec, prev.Status, v.Status
	own := fmt.Sprintf("w%d", d.writer)
	others := func(l []string) []string {
		return slices.DeleteFunc(slices.Clone(l), func(x string) bool { return strings.HasPrefix(x, own+"-") })
	}
	var out []string
	// An absent phase read back as the storage version's default, Pending,
	// is the server's (oracleEnv), not a writer's.
	if a.Phase != b.Phase && s.phase == "" && !s.removePhase && (a.Phase != "" || b.Phase != "Pending") {
		out = append(out, "phase")
	}
	if a.ObservedGeneration != b.ObservedGeneration && s.gen == 0 {
		out = append(out, "observedGeneration")
	}
	if !slices.Equal(others(a.Items), others(b.Items)) && !s.item && !s.removeItem {
		out = append(out, "items")
	}
	if !slices.Equal(others(steps(prev)), others(steps(v))) && s.sharedStep == "" && !s.step && !s.removeStep {
		out = append(out, "plan.steps")
	}
	for _, k := range slices.Sorted(maps.Keys(mapUnion(a.Counters, b.Counters))) {
		if a.Counters[k] != b.Counters[k] && k != own && (k != "shared" || s.shared == 0 && !s.takeShared) && k != "sum" {
			out = append(out, "counters."+k)
		}
	}
	ownType := fmt.Sprintf("W%d", d.writer)
	for _, c := range append(slices.Clone(a.Conditions), b.Conditions...) {
		x, y := meta.FindStatusCondition(a.Conditions, c.Type), meta.FindStatusCondition(b.Conditions, c.Type)
		changed := (x == nil) != (y == nil) || x != nil && (x.Status != y.Status || x.Reason != y.Reason)
		if changed && c.Type != ownType && c.Type != s.condType && (c.Type != "Ready" || !s.takeShared) && !slices.Contains(out, "conditions."+c.Type) {
			out = append(out, "conditions."+c.Type)
		}
	}
	return out
}

func mapUnion(a, b map[string]int64) map[string]int64 {
	u := maps.Clone(a)
	if u == nil {
		u = map[string]int64{}
	}
	maps.Copy(u, b)
	return u
}
