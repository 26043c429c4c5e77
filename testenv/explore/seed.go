package explore

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"
)

// A seed is the chosen steps of a schedule, space-separated. A reconcile
// is "reconciler:namespace/name@lag,lag" ("reconciler:name@..." for a
// cluster-scoped object): the lags are how many versions behind the newest
// each cached read of the step saw, in order, then, if the step crashed,
// the crash ("#2", "#2L", "#2Z": crash.go). An action is "!name". The
// delivery of the write a "#nZ" step left in flight is "~" and that step's
// reconciler:namespace/name. A schedule with no chosen step (only its
// drain) is "-".

// noSteps is the seed of a schedule with no chosen step.
const noSteps = "-"

func (ex *explorer) itemID(it item) string {
	if it.action >= 0 {
		return "!" + ex.s.Actions[it.action].Name
	}
	if it.deliver {
		return "~" + ex.itemID(item{rec: it.rec, action: -1, key: it.key})
	}
	name := it.key.nn.Name
	if it.key.nn.Namespace != "" {
		name = it.key.nn.String()
	}
	return ex.s.Reconcilers[it.rec].Name + ":" + name
}

func (ex *explorer) formatSeed(script []scriptStep) string {
	parts := make([]string, 0, len(script))
	for _, s := range script {
		lags := make([]string, len(s.lags))
		for i, l := range s.lags {
			lags[i] = strconv.Itoa(l)
		}
		id := ex.itemID(s.it)
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

func (ex *explorer) parseSeed(seed string) ([]scriptStep, error) {
	if strings.TrimSpace(seed) == noSteps {
		return []scriptStep{}, nil
	}
	var script []scriptStep
	for i, f := range strings.Fields(seed) {
		f, crashText, crashed := strings.Cut(f, "#")
		id, lagText, _ := strings.Cut(f, "@")
		s := scriptStep{it: item{rec: -1, action: -1}, lags: []int{}}
		if crashed {
			s.crash.kind = crashRestart
			if t, ok := strings.CutSuffix(crashText, "L"); ok {
				crashText, s.crash.kind = t, crashFailover
			} else if t, ok := strings.CutSuffix(crashText, "Z"); ok {
				crashText, s.crash.kind = t, crashInFlight
			}
			n, err := strconv.Atoi(crashText)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("explore: seed step %d %q: crash %q is not a write number >= 1 (optionally with L or Z)", i+1, f, crashText)
			}
			s.crash.at = n
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
			for j, a := range ex.s.Actions {
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
		}
		rec, obj, ok := strings.Cut(id, ":")
		for j, rc := range ex.s.Reconcilers {
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
		s.it.key = objKey{gvk: ex.forKinds[s.it.rec], nn: nn}
		script = append(script, s)
	}
	if len(script) == 0 {
		return nil, fmt.Errorf("explore: seed %q has no steps (a schedule with none is %q)", seed, noSteps)
	}
	return script, nil
}
