package realops

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

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

// logRanked logs every distinct violation a search kept, in the order it
// reports them (most severe first): rank, reason, invariant, message
// (which ends with the audit of the write at fault where the linter gave
// one) and the seed that replays it. With STATUSPATCH_LINT set (make
// explore-operators sets it), a violation whose write at fault is a
// status write and names no audit fails the test: every report of a
// status write, in the operator's module or a dependency, carries its
// audit class (issue 82).
func logRanked(t *testing.T, res *explore.Result) {
	t.Helper()
	for i, v := range res.Violations {
		t.Logf("report %d: rank %d (%s): %s: %s (replay %q)", i+1, v.Rank, v.RankReason, v.Invariant, v.Message, v.Seed)
		if os.Getenv("STATUSPATCH_LINT") != "" && v.Cause != nil && strings.HasSuffix(v.Cause.Kind, "of status") && v.Cause.Audit == "" {
			t.Errorf("report %d: the status write at fault (%s at %s) names no audit class", i+1, v.Cause.Kind, v.Cause.At)
		}
	}
}
