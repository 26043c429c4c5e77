package realops

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// actionTally counts, per action of a scenario, the runs and the errors:
// the explorer runs each action once a schedule and reports no action's
// error (a failed action is not retried), so a scenario whose action the
// server refuses explores nothing of what that action should start.
type actionTally struct {
	mu         sync.Mutex
	runs, errs map[string]int
	lastErr    map[string]string
}

// wrap returns s with its actions counted.
func (t *actionTally) wrap(s explore.Scenario) explore.Scenario {
	t.runs, t.errs, t.lastErr = map[string]int{}, map[string]int{}, map[string]string{}
	actions := make([]explore.Action, len(s.Actions))
	for i, a := range s.Actions {
		run := a.Run
		actions[i] = explore.Action{Name: a.Name, Run: func(ctx context.Context, c client.Client) error {
			err := run(ctx, c)
			t.mu.Lock()
			defer t.mu.Unlock()
			t.runs[a.Name]++
			if err != nil {
				t.errs[a.Name]++
				t.lastErr[a.Name] = err.Error()
			}
			return err
		}}
	}
	s.Actions = actions
	return s
}

func (t *actionTally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for name, n := range t.runs {
		line := fmt.Sprintf("%s: %d runs, %d errors", name, n, t.errs[name])
		if t.errs[name] > 0 {
			line += " (last: " + t.lastErr[name] + ")"
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}
