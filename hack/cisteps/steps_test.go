package cisteps

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

const root = "../.."

// fakeStep stands in for .ci/step TAG NAME CMD...: it appends "start NAME"
// and "end NAME" to $STEPS_LOG (short appends to an O_APPEND file do not
// interleave), sleeping between them so that steps overlap, and fails when
// NAME is $STEPS_FAIL.
const fakeStep = `#!/usr/bin/env bash
set -u
name=$2
echo "start $name" >>"$STEPS_LOG"
sleep 0.1
echo "end $name" >>"$STEPS_LOG"
[[ $name != "${STEPS_FAIL:-}" ]]
`

// event is one line of the log: a step's start or end.
type event struct {
	start bool
	name  string
}

// ciMake is .ci/run's make command line of the graph ("make -k -j2 -f
// .ci/steps.mk"), as written there.
func ciMake(t *testing.T) []string {
	t.Helper()
	run, err := os.ReadFile(filepath.Join(root, ".ci/run"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, l := range strings.Split(string(run), "\n") {
		if strings.HasPrefix(l, "make ") && strings.Contains(l, ".ci/steps.mk") {
			cmd, _, _ := strings.Cut(l, "||")
			found = append(found, cmd)
		}
	}
	if len(found) != 1 {
		t.Fatalf(".ci/run has %d make lines of .ci/steps.mk, want 1: %q", len(found), found)
	}
	return strings.Fields(found[0])
}

// runGraph runs .ci/run's make command line of .ci/steps.mk with the fake
// step; fail names a step that fails. It returns the log and make's error.
func runGraph(t *testing.T, fail string) ([]event, error) {
	t.Helper()
	// Not t.TempDir(): a subtest's name would put parentheses in the path,
	// which the recipes pass to the shell unquoted, as .ci/step's is.
	dir, err := os.MkdirTemp("", "cisteps")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	step := filepath.Join(dir, "step")
	if err := os.WriteFile(step, []byte(fakeStep), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	words := ciMake(t)
	cmd := exec.Command(words[0], append(words[1:], "STEP="+step)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "STEPS_LOG="+log, "STEPS_FAIL="+fail, "MAKEFLAGS=", "MAKELEVEL=")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("make: %v\n%s", err, out)
	}
	f, ferr := os.Open(log)
	if ferr != nil {
		t.Fatalf("no step ran: %v\n%s", ferr, out)
	}
	defer f.Close()
	var evs []event
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		kind, name, ok := strings.Cut(sc.Text(), " ")
		if !ok || (kind != "start" && kind != "end") {
			t.Fatalf("log line %q", sc.Text())
		}
		evs = append(evs, event{kind == "start", name})
	}
	if err == nil {
		return evs, nil
	}
	return evs, fmt.Errorf("%w\n%s", err, out)
}

// graph is what .ci/steps.mk must hold: its steps and, for each, the steps
// it must follow. Each submission tests the floor line (hack/lines.txt) and
// the workspace's; no other supported line has a step of its own.
func graph(t *testing.T) (steps []string, after map[string][]string) {
	t.Helper()
	tab, err := lines.ReadFile(filepath.Join(root, "hack/lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if floor, err := tab.Select(lines.Floor); err != nil || len(floor) != 1 {
		t.Fatalf("floor line: %v, %v", floor, err)
	}
	const (
		tools, build, assets, testAssets = "make tools", "compat build floor", "make testenv-assets", "make test-assets"
		floorTest, rest                  = "compat test floor", "compat test workspace below"
		install, release, newcomer, conc = "make test-install", "make test-release", "make test-newcomer (install line)", "make test-release-concurrent"
		fuzz, lint, plugin               = "make fuzz (FUZZ_SERVER=0)", "make lint", "make lint-plugin"
	)
	after = map[string][]string{
		tools:       nil,
		build:       nil,
		assets:      {tools},
		testAssets:  {assets},
		"make test": {testAssets},
		floorTest:   {build, testAssets},
		rest:        {testAssets},
		install:     {testAssets},
		release:     {install},
		newcomer:    {release},
		conc:        {newcomer},
		fuzz:        {build, testAssets},
		lint:        {fuzz},
		plugin:      {lint},
	}
	for s := range after {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	return steps, after
}

// ran returns each step's start and end index in the log, failing the test
// on a step that started twice or did not end.
func ran(t *testing.T, evs []event) (start, end map[string]int) {
	t.Helper()
	start, end = map[string]int{}, map[string]int{}
	for i, e := range evs {
		m := end
		if e.start {
			m = start
		}
		if _, dup := m[e.name]; dup {
			t.Errorf("%q ran twice", e.name)
		}
		m[e.name] = i
	}
	for s := range start {
		if _, ok := end[s]; !ok {
			t.Errorf("%q started and did not end", s)
		}
	}
	return start, end
}

func TestEveryStepOnceAfterWhatItNeedsTwoAtATime(t *testing.T) {
	evs, err := runGraph(t, "")
	if err != nil {
		t.Fatal(err)
	}
	steps, after := graph(t)
	start, end := ran(t, evs)
	var got []string
	for s := range start {
		got = append(got, s)
	}
	slices.Sort(got)
	if !slices.Equal(got, steps) {
		t.Errorf("steps run:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(steps, "\n  "))
	}
	for s, needs := range after {
		for _, n := range needs {
			if e, ok := end[n]; ok && start[s] < e {
				t.Errorf("%q started before %q ended", s, n)
			}
		}
	}
	running, most := 0, 0
	for _, e := range evs {
		if e.start {
			running++
		} else {
			running--
		}
		most = max(most, running)
	}
	if most != 2 {
		t.Errorf("at most %d steps at once, want 2 (make -j2 on 2 cores)", most)
	}
}

// A failed step stops the steps that need it, directly or not, and no
// other (make -k), and make exits non-zero.
func TestAFailureStopsOnlyWhatNeedsIt(t *testing.T) {
	steps, after := graph(t)
	needs := func(s, failed string) bool {
		var walk func(string) bool
		walk = func(x string) bool {
			for _, n := range after[x] {
				if n == failed || walk(n) {
					return true
				}
			}
			return false
		}
		return walk(s)
	}
	for _, failed := range []string{"compat build floor", "make test-assets", "make test-release", "make fuzz (FUZZ_SERVER=0)", "make test"} {
		t.Run(failed, func(t *testing.T) {
			evs, err := runGraph(t, failed)
			if err == nil {
				t.Fatalf("make exited 0 with %q failed", failed)
			}
			start, _ := ran(t, evs)
			for _, s := range steps {
				_, did := start[s]
				switch want := s == failed || !needs(s, failed); {
				case did && !want:
					t.Errorf("%q ran after %q, which it needs, failed", s, failed)
				case !did && want:
					t.Errorf("%q did not run after %q failed; it does not need it", s, failed)
				}
			}
		})
	}
}
