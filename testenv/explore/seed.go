package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"
)

// A seed is the chosen steps of a schedule, space-separated. A reconcile
// is "reconciler:namespace/name@lag,lag" ("reconciler:name@..." for a
// cluster-scoped object): the lags are how many versions behind the newest
// each cached read of the step saw, in order, then, if the step crashed,
// the crash ("#2", "#2L", "#2Z", "#2Z3": crash.go). An action is "!name".
// The delivery of the write a "#nZ" step left in flight is "~" and that
// step's reconciler:namespace/name; of its k-th (k > 1) after a "#nZk",
// "~k:" and the same. A schedule with no chosen step (only its drain) is
// "-".

// noSteps is the seed of a schedule with no chosen step.
const noSteps = "-"

func (st *setupState) itemID(it item) string {
	if it.action >= 0 {
		return "!" + st.s.Actions[it.action].Name
	}
	if it.deliver {
		nth := ""
		if it.nth > 0 {
			nth = strconv.Itoa(it.nth+1) + ":"
		}
		return "~" + nth + st.itemID(item{rec: it.rec, action: -1, key: it.key})
	}
	name := it.key.NN.Name
	if it.key.NN.Namespace != "" {
		name = it.key.NN.String()
	}
	return st.s.Reconcilers[it.rec].Name + ":" + name
}

func (st *setupState) formatSeed(script []scriptStep) string {
	parts := make([]string, 0, len(script))
	for _, s := range script {
		lags := make([]string, len(s.lags))
		for i, l := range s.lags {
			lags[i] = strconv.Itoa(l)
		}
		id := st.itemID(s.it)
		if (s.it.action < 0 && !s.it.deliver) || len(lags) > 0 {
			id += "@" + strings.Join(lags, ",")
		}
		id += s.crash.String()
		parts = append(parts, id)
	}
	if len(parts) == 0 {
		return noSteps
	}
	return strings.Join(parts, " ")
}

func (st *setupState) parseSeed(seed string) ([]scriptStep, error) {
	if strings.TrimSpace(seed) == noSteps {
		return []scriptStep{}, nil
	}
	var script []scriptStep
	for i, f := range strings.Fields(seed) {
		f, crashText, crashed := strings.Cut(f, "#")
		id, lagText, _ := strings.Cut(f, "@")
		s := scriptStep{it: item{rec: -1, action: -1}, lags: []int{}}
		if crashed {
			c, err := parseCrash(crashText)
			if err != nil {
				return nil, fmt.Errorf("explore: seed step %d %q: %w", i+1, f, err)
			}
			s.crash = c
		}
		if lagText != "" {
			for _, l := range strings.Split(lagText, ",") {
				n, err := strconv.Atoi(l)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("explore: seed step %d %q: lag %q is not a number >= 0", i+1, f, l)
				}
				s.lags = append(s.lags, n)
			}
		}
		if name, ok := strings.CutPrefix(id, "!"); ok {
			for j, a := range st.s.Actions {
				if a.Name == name {
					s.it.action = j
				}
			}
			if s.it.action < 0 {
				return nil, fmt.Errorf("explore: seed step %d %q: no action %q in the scenario", i+1, f, name)
			}
			script = append(script, s)
			continue
		}
		if rest, ok := strings.CutPrefix(id, "~"); ok {
			if crashed || lagText != "" {
				return nil, fmt.Errorf("explore: seed step %d %q: a delivery (~) has no lags and no crash", i+1, f)
			}
			id, s.it.deliver = rest, true
			if nth, rest, ok := strings.Cut(id, ":"); ok && strings.Count(rest, ":") == 1 {
				// "~k:reconciler:object": names have no ':'.
				n, err := strconv.Atoi(nth)
				if err != nil || n < 1 {
					return nil, fmt.Errorf("explore: seed step %d %q: the write in flight %q is not a number >= 1", i+1, f, nth)
				}
				id, s.it.nth = rest, n-1
			}
		}
		rec, obj, ok := strings.Cut(id, ":")
		for j, rc := range st.s.Reconcilers {
			if rc.Name == rec {
				s.it.rec = j
			}
		}
		if !ok || s.it.rec < 0 || obj == "" {
			return nil, fmt.Errorf("explore: seed step %d %q: want reconciler:namespace/name@lags with a reconciler of the scenario", i+1, f)
		}
		nn := types.NamespacedName{Name: obj}
		if ns, name, ok := strings.Cut(obj, "/"); ok {
			nn = types.NamespacedName{Namespace: ns, Name: name}
		}
		s.it.key = book.Key{GVK: st.forKinds[s.it.rec], NN: nn}
		script = append(script, s)
	}
	if len(script) == 0 {
		return nil, fmt.Errorf("explore: seed %q has no steps (a schedule with none is %q)", seed, noSteps)
	}
	return script, nil
}

// parseCrash parses a seed's crash, after "#": a write number >= 1, then
// L (leader change) or Z (a write in flight), Z optionally with how many.
func parseCrash(text string) (crashPoint, error) {
	c := crashPoint{kind: crashRestart}
	at, bound, inFlight := strings.Cut(text, "Z")
	if t, ok := strings.CutSuffix(text, "L"); ok {
		at, c.kind = t, crashFailover
	} else if inFlight {
		c.kind, c.inFlight = crashInFlight, 1
		if bound != "" {
			n, err := strconv.Atoi(bound)
			if err != nil || n < 1 {
				return c, fmt.Errorf("crash %q: the writes in flight %q are not a number >= 1", text, bound)
			}
			c.inFlight = n
		}
	}
	n, err := strconv.Atoi(at)
	if err != nil || n < 1 {
		return c, fmt.Errorf("crash %q is not a write number >= 1 (optionally with L, Z or Z and the writes in flight)", text)
	}
	c.at = n
	return c, nil
}
