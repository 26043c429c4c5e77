package schedule

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Names are the scenario's names a seed uses: reconcilers by index, with
// the kind each reconciles, and actions.
type Names interface {
	ReconcilerName(rec int) string
	ActionName(action int) string
	// Kind is the kind reconciler rec reconciles.
	Kind(rec int) schema.GroupVersionKind
	// Reconciler and Action are the index of the one named, -1 for none.
	Reconciler(name string) int
	Action(name string) int
}

// NoSteps is the seed of a schedule with no chosen step.
const NoSteps = "-"

// ID is it as a seed names it: "reconciler:namespace/name", "!action",
// "~reconciler:namespace/name" for a delivery ("~k:..." of the k-th).
func ID(n Names, it Item) string {
	if it.Action >= 0 {
		return "!" + n.ActionName(it.Action)
	}
	if it.Pushed > 0 {
		ch := ""
		if it.Pushed > 1 {
			ch = strconv.Itoa(it.Pushed) + ":"
		}
		return "^" + ch + n.ReconcilerName(it.Rec) + ":" + cmp.Or(nameOf(it.Key), NoSteps)
	}
	if it.Deliver {
		nth := ""
		if it.Nth > 0 {
			nth = strconv.Itoa(it.Nth+1) + ":"
		}
		return "~" + nth + ID(n, Item{Rec: it.Rec, Action: -1, Key: it.Key})
	}
	return n.ReconcilerName(it.Rec) + ":" + nameOf(it.Key)
}

// nameOf is k's object as a seed names it: "namespace/name", or "name".
func nameOf(k book.Key) string {
	if k.NN.Namespace != "" {
		return k.NN.String()
	}
	return k.NN.Name
}

// Format is the seed of script.
func Format(n Names, script []Chosen) string {
	parts := make([]string, 0, len(script))
	for _, s := range script {
		lags := make([]string, len(s.Lags))
		for i, l := range s.Lags {
			lags[i] = strconv.Itoa(l)
		}
		id := ID(n, s.It)
		if (s.It.Action < 0 && !s.It.Deliver && s.It.Pushed == 0) || len(lags) > 0 {
			id += "@" + strings.Join(lags, ",")
		}
		id += s.Crash.String()
		parts = append(parts, id)
	}
	if len(parts) == 0 {
		return NoSteps
	}
	return strings.Join(parts, " ")
}

// Parse reads a seed Format wrote, against the scenario's names.
func Parse(n Names, seed string) ([]Chosen, error) {
	if strings.TrimSpace(seed) == NoSteps {
		return []Chosen{}, nil
	}
	var script []Chosen
	for i, f := range strings.Fields(seed) {
		f, crashText, crashed := strings.Cut(f, "#")
		id, lagText, _ := strings.Cut(f, "@")
		s := Chosen{It: Item{Rec: -1, Action: -1}, Lags: []int{}}
		if crashed {
			c, err := ParseCrash(crashText)
			if err != nil {
				return nil, fmt.Errorf("explore: seed step %d %q: %w", i+1, f, err)
			}
			s.Crash = c
		}
		if lagText != "" {
			for _, l := range strings.Split(lagText, ",") {
				n, err := strconv.Atoi(l)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("explore: seed step %d %q: lag %q is not a number >= 0", i+1, f, l)
				}
				s.Lags = append(s.Lags, n)
			}
		}
		if name, ok := strings.CutPrefix(id, "!"); ok {
			s.It.Action = n.Action(name)
			if s.It.Action < 0 {
				return nil, fmt.Errorf("explore: seed step %d %q: no action %q in the scenario", i+1, f, name)
			}
			script = append(script, s)
			continue
		}
		if rest, ok := strings.CutPrefix(id, "^"); ok {
			it, err := parsePushed(n, rest)
			if err != nil || crashed || lagText != "" {
				return nil, fmt.Errorf("explore: seed step %d %q: want ^reconciler:namespace/name, ^reconciler:- or ^k:... (the k-th channel), no lags and no crash: %w", i+1, f, cmp.Or(err, errors.New("a pushed event's delivery has neither")))
			}
			s.It = it
			script = append(script, s)
			continue
		}
		if rest, ok := strings.CutPrefix(id, "~"); ok {
			if crashed || lagText != "" {
				return nil, fmt.Errorf("explore: seed step %d %q: a delivery (~) has no lags and no crash", i+1, f)
			}
			id, s.It.Deliver = rest, true
			if nth, rest, ok := strings.Cut(id, ":"); ok && strings.Count(rest, ":") == 1 {
				// "~k:reconciler:object": names have no ':'.
				n, err := strconv.Atoi(nth)
				if err != nil || n < 1 {
					return nil, fmt.Errorf("explore: seed step %d %q: the write in flight %q is not a number >= 1", i+1, f, nth)
				}
				id, s.It.Nth = rest, n-1
			}
		}
		rec, obj, ok := strings.Cut(id, ":")
		s.It.Rec = n.Reconciler(rec)
		if !ok || s.It.Rec < 0 || obj == "" {
			return nil, fmt.Errorf("explore: seed step %d %q: want reconciler:namespace/name@lags with a reconciler of the scenario", i+1, f)
		}
		nn := types.NamespacedName{Name: obj}
		if ns, name, ok := strings.Cut(obj, "/"); ok {
			nn = types.NamespacedName{Namespace: ns, Name: name}
		}
		s.It.Key = book.Key{GVK: n.Kind(s.It.Rec), NN: nn}
		script = append(script, s)
	}
	if len(script) == 0 {
		return nil, fmt.Errorf("explore: seed %q has no steps (a schedule with none is %q)", seed, NoSteps)
	}
	return script, nil
}

// ParseCrash parses a seed's crash, after "#": a write number >= 1, then
// L (leader change) or Z (a write in flight), Z optionally with how many.
func ParseCrash(text string) (Crash, error) {
	c := Crash{Kind: CrashRestart}
	at, bound, inFlight := strings.Cut(text, "Z")
	if t, ok := strings.CutSuffix(text, "L"); ok {
		at, c.Kind = t, CrashFailover
	} else if inFlight {
		c.Kind, c.InFlight = CrashInFlight, 1
		if bound != "" {
			n, err := strconv.Atoi(bound)
			if err != nil || n < 1 {
				return c, fmt.Errorf("crash %q: the writes in flight %q are not a number >= 1", text, bound)
			}
			c.InFlight = n
		}
	}
	n, err := strconv.Atoi(at)
	if err != nil || n < 1 {
		return c, fmt.Errorf("crash %q is not a write number >= 1 (optionally with L, Z or Z and the writes in flight)", text)
	}
	c.At = n
	return c, nil
}

// parsePushed reads the delivery of a pushed event after its "^":
// "[k:]reconciler:namespace/name", or "-" for an event of no object.
func parsePushed(n Names, id string) (Item, error) {
	it := Item{Rec: -1, Action: -1, Pushed: 1}
	if k, rest, ok := strings.Cut(id, ":"); ok && strings.Count(rest, ":") == 1 {
		c, err := strconv.Atoi(k)
		if err != nil || c < 1 {
			return it, fmt.Errorf("the channel %q is not a number >= 1", k)
		}
		id, it.Pushed = rest, c
	}
	rec, obj, ok := strings.Cut(id, ":")
	if it.Rec = n.Reconciler(rec); !ok || it.Rec < 0 || obj == "" {
		return it, fmt.Errorf("no reconciler %q of the scenario, or no object", rec)
	}
	if obj != NoSteps {
		it.Key.NN = types.NamespacedName{Name: obj}
		if ns, name, ok := strings.Cut(obj, "/"); ok {
			it.Key.NN = types.NamespacedName{Namespace: ns, Name: name}
		}
	}
	return it, nil
}
