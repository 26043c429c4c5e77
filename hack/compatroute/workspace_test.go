package main

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// TestWorkspaceLineLeavesTestenvToMakeTest: at the workspace's line,
// testenv's and the explorer's tests are each left to make test only when
// go's version and the build list print the same, and not empty, in the
// workspace and at the line; at any other line nothing is compared.
func TestWorkspaceLineLeavesTestenvToMakeTest(t *testing.T) {
	const list = "example.com/a /mod/example.com/a@v1.0.0\n"
	answer := func(version, wsList, lineList string) func(gocmd.Cmd) (string, error) {
		return func(c gocmd.Cmd) (string, error) {
			switch {
			case c.Verb[0] == "env":
				return version, nil
			case c.Verb[0] == "list" && c.Workspace:
				return wsList, nil
			case c.Verb[0] == "list" && c.Modfile != "":
				return lineList, nil
			}
			return "", nil
		}
	}
	for _, c := range []struct {
		name, version, ws, line string
		skip                    bool
		why                     string
	}{
		{"the same", "go1.9.2\n", list, list, true, ""},
		{"another version of a module", "go1.9.2\n", list, "example.com/a /mod/example.com/a@v1.0.1\n", false, "go list differs from the workspace's"},
		{"a package more", "go1.9.2\n", list, list + "example.com/a/b /mod/example.com/a@v1.0.0\n", false, "go list differs"},
		{"nothing listed", "go1.9.2\n", "", "", false, "go list printed nothing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, f, out, notes, table := newRoute(t, answer(c.version, c.ws, c.line))
			if code := r.main([]string{"test", "workspace"}, table); code != 0 {
				t.Fatalf("exit %d: %s", code, notes)
			}
			for _, m := range []struct{ name, test string }{
				{"testenv", "go test -modfile=../hack/compat/v0.14/testenv.mod"},
				{"explore", "go test -modfile=../../hack/compat/v0.14/explore.mod"},
			} {
				ran := false
				for _, cmd := range f.Ran {
					ran = ran || strings.Contains(cmd, m.test)
				}
				if ran == c.skip {
					t.Errorf("%s's tests run: %v, want %v; ran\n%s", m.name, ran, !c.skip, strings.Join(f.Ran, "\n"))
				}
				if c.skip && !strings.Contains(out.String(), "=== v0.14: "+m.name+"'s tests are make test's") {
					t.Errorf("%s's skip is not said:\n%s", m.name, out)
				}
				if !c.skip && !strings.Contains(out.String(), m.name+"'s tests run here: not shown to be make test's ("+c.why) {
					t.Errorf("why %s's run is not said (%s):\n%s", m.name, c.why, out)
				}
			}
			if len(f.Ran) == 0 || !strings.Contains(out.String(), "go test -modfile=../../../../hack/compat/v0.14/goldens.mod") {
				t.Errorf("the line's other tests did not run:\n%s", out)
			}
		})
	}
	r, f, _, notes, table := newRoute(t, answer("go1.9.2\n", list, list))
	if code := r.main([]string{"test", "v0.13"}, table); code != 0 {
		t.Fatalf("exit %d: %s", code, notes)
	}
	for _, cmd := range f.Ran {
		if strings.Contains(cmd, " env ") || strings.Contains(cmd, " list ") {
			t.Errorf("at a line that is not the workspace's, %s ran", cmd)
		}
	}
}
