package explore_test

import (
	"fmt"
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

// A search's violation says after how many schedules it was found; a
// replay of its seed searched nothing and says it is a replay, not
// "found after 0 schedules" (issue 82): in the violation, the JSON report
// and the report's text, and its progress names the replay.
func TestReplaySaysItIsAReplay(t *testing.T) {
	fake := explore.Fake(widgetScheme(t), &testv1.Widget{})
	dir := t.TempDir()
	searchFile, replayFile := filepath.Join(dir, "search.json"), filepath.Join(dir, "replay.json")
	var searchProgress strings.Builder
	res, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Depth: 5, Versions: 5, StaleReads: 8,
		Budget: searchBound, StopAtFirst: true, Report: searchFile, Progress: &searchProgress})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil {
		t.Fatalf("want the user invariant broken, got none in %d schedules", res.Schedules)
	}
	if v.Schedules < 1 || v.Bounds.Replay {
		t.Fatalf("search: want a violation found by at least one schedule, not a replay, got %d schedules at %s", v.Schedules, v.Bounds)
	}
	wantFound := fmt.Sprintf("found after %d schedules in ", v.Schedules)
	if text := v.String(); !strings.Contains(text, wantFound) || strings.Contains(text, "a replay of") {
		t.Fatalf("search: want %q, not a replay:\n%s", wantFound, text)
	}
	rep, err := report.Read(searchFile)
	if err != nil {
		t.Fatal(err)
	}
	wantFirst := fmt.Sprintf("first found by schedule %d\n", v.Schedules-1)
	if text := rep.String(); rep.Replay != "" || !strings.Contains(text, wantFirst) || strings.Contains(text, "a replay of") {
		t.Fatalf("search report: want %q and no replay (replay %q):\n%s", wantFirst, rep.Replay, text)
	}

	if p, want := searchProgress.String(), fmt.Sprintf(": %d schedules, ", res.Schedules); !strings.Contains(p, want) || strings.Contains(p, "replay") {
		t.Fatalf("search progress: want %q, no replay:\n%s", want, p)
	}

	var progress strings.Builder
	again, err := explore.Run(t.Context(), thriceFooledScenario(), explore.Options{Backend: fake, Replay: v.Seed, Versions: 5,
		Report: replayFile, Progress: &progress})
	if err != nil || again.Violation == nil {
		t.Fatalf("replay of %q: %v, %v", v.Seed, err, again.Violation)
	}
	rv := again.Violation
	if !rv.Bounds.Replay || rv.Schedules != 0 || rv.FoundAfter != 0 {
		t.Fatalf("replay: want its bounds a replay's and no search counted, got %s, %d schedules, %s", rv.Bounds, rv.Schedules, rv.FoundAfter)
	}
	if text := rv.String(); strings.Contains(text, "found after") || !strings.Contains(text, "chosen steps, a replay of the seed below, not found by a search):\n") {
		t.Fatalf("replay: want it named a replay, not found after a count of schedules:\n%s", text)
	}
	rep, err = report.Read(replayFile)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Replay != v.Seed || len(rep.Violations) != 1 || rep.Violations[0].Bounds == nil || !rep.Violations[0].Bounds.Replay {
		t.Fatalf("replay report: want the seed %q and its one violation's bounds a replay's, got %q, %+v", v.Seed, rep.Replay, rep.Violations)
	}
	text := rep.String()
	if wantHead := fmt.Sprintf("explore: a replay of seed %q (", v.Seed); !strings.HasPrefix(text, wantHead) ||
		!strings.Contains(text, "  found by the replay\n") || strings.Contains(text, "first found by schedule") {
		t.Fatalf("replay report: want %q and \"found by the replay\", no schedule index:\n%s", wantHead, text)
	}
	if _, err := report.Merge([]report.Report{rep}); err == nil {
		t.Error("merge of a replay's report: want an error, it is no shard of a search")
	}
	if p := progress.String(); !strings.Contains(p, ": 1 schedule replayed, 2 runs, 1 violation") || !strings.Contains(p, "(a replay of Options.Replay)") ||
		strings.Contains(p, "schedules") || strings.Contains(p, "deepening level") {
		t.Errorf("replay progress: want the replay named, its two runs of one schedule:\n%s", p)
	}
}
