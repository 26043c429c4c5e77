package explore_test

import (
	"path/filepath"
	"strings"
	"testing"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// A seeded random search does not deepen: its violation says it was
// found by random schedules, not "(deepening level 0)"; a replay says it
// is one; the JSON report marks the random search's bounds.
func TestRandomSearchDoesNotClaimDeepening(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	file := filepath.Join(t.TempDir(), "report.json")
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Seed: 1, Depth: 5, Versions: 5, StaleReads: 8,
		Budget: searchBound, StopAtFirst: true, Report: file, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("want the user invariant broken, got none in %d schedules", res.Schedules)
	}
	text := v.String()
	if strings.Contains(text, "deepening level") || !strings.Contains(text, "found at Depth 5, Versions 5, StaleReads 8 (random schedules of Options.Seed, not deepened)\n") {
		t.Fatalf("want the random search named, not a deepening level:\n%s", text)
	}
	rep, err := report.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) == 0 || rep.Violations[0].Bounds == nil || !rep.Violations[0].Bounds.Random {
		t.Fatalf("report: want the bounds marked random, got %+v", rep.Violations)
	}
	again, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Replay: v.Seed, Versions: 5, Quiet: true})
	if err != nil || again.Violation == nil {
		t.Fatalf("replay of %q: %v, %v", v.Seed, err, again.Violation)
	}
	if s := again.Violation.String(); strings.Contains(s, "deepening level") || !strings.Contains(s, "found at Versions 5 (a replay of Options.Replay)\n") {
		t.Fatalf("replay: want it named a replay, not a deepening level:\n%s", s)
	}
}

// A search at the bounds it was given (Depth set, no deepening) says so,
// not "(deepening level 0)" (issue 82), in the violation, the progress
// line and the report.
func TestExplicitBoundsDoNotClaimDeepening(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	file := filepath.Join(t.TempDir(), "report.json")
	var progress strings.Builder
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Depth: 5, Versions: 5, StaleReads: 8,
		Budget: searchBound, Report: file, Progress: &progress, StopAtFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("want the user invariant broken, got none in %d schedules", res.Schedules)
	}
	if text := v.String(); strings.Contains(text, "deepening level") || !strings.Contains(text, "found at Depth 5, Versions 5, StaleReads 8 (fixed bounds, not deepened)\n") {
		t.Fatalf("want the fixed bounds named, not a deepening level:\n%s", text)
	}
	if p := progress.String(); strings.Contains(p, "deepening level") || !strings.Contains(p, "fixed bounds") {
		t.Errorf("progress: want the fixed bounds named, not a deepening level:\n%s", p)
	}
	rep, err := report.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) == 0 || rep.Violations[0].Bounds == nil || !rep.Violations[0].Bounds.Fixed {
		t.Fatalf("report: want the bounds marked fixed, got %+v", rep.Violations)
	}
}
