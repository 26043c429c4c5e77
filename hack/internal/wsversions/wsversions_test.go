package wsversions

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// Fixed go list -m outputs: the workspace's (its own modules without a
// version) and a test module's.
const (
	wsList = `github.com/statuspatch/statuspatch
github.com/statuspatch/statuspatch/examples
example.com/a/b v1.4.0
example.com/a v1.2.0
example.com/a-c v0.9.2
example.com/same v1.0.0
example.com/onlyws v2.0.0
github.com/statuspatch/statuspatch/testenv v0.1.0
sigs.k8s.io/controller-runtime v0.9.1
k8s.io/api v0.19.2
`
	modList = `example.com/realmod
example.com/a v1.1.0
example.com/a/b v1.3.0
example.com/a-c v0.9.1
example.com/same v1.0.0
example.com/onlymod v3.0.0
github.com/statuspatch/statuspatch/testenv v0.0.9
github.com/statuspatch/statuspatch/examples v1.0.0
`
)

// TestRequires: the join of the two graphs: the workspace's version of
// each module both hold at different versions, in sorted rows' order,
// none of this repository's.
func TestRequires(t *testing.T) {
	got := strings.Join(Requires(Parse(wsList), Parse(modList)), " ")
	want := "-require=example.com/a@v1.2.0 -require=example.com/a-c@v0.9.2 -require=example.com/a/b@v1.4.0"
	if got != want {
		t.Errorf("Requires =\n%s\nwant\n%s", got, want)
	}
	if got := Requires(Parse(wsList), Parse(wsList)); len(got) != 0 {
		t.Errorf("a module at the workspace's versions already: %q", got)
	}
	if got := Parse("m\n\nexample.com/a v1.2.0\n"); len(got) != 2 || got[0] != (Module{Path: "m"}) || got[1] != (Module{"example.com/a", "v1.2.0"}) {
		t.Errorf("Parse = %q", got)
	}
}

func TestIsLine(t *testing.T) {
	ws := Parse(wsList)
	for _, c := range []struct {
		cr, k8s string
		want    bool
	}{{"v0.9.1", "v0.19.2", true}, {"v0.9.1", "v0.19.3", false}, {"v0.9.0", "v0.19.2", false}} {
		if IsLine(ws, c.cr, c.k8s) != c.want {
			t.Errorf("IsLine(%s, %s) = %v", c.cr, c.k8s, !c.want)
		}
	}
}

func fake(ws, mod string) *gocmd.Fake {
	return &gocmd.Fake{Answer: func(c gocmd.Cmd) (string, error) {
		if c.Verb[0] != "list" {
			return "", nil
		}
		if c.Workspace {
			return ws, nil
		}
		return mod, nil
	}}
}

// TestApply: the go commands of workspace_versions, in order: both lists,
// then go mod edit and tidy on the alternate go.mod, relative to the
// module's folder; only the lists when nothing differs.
func TestApply(t *testing.T) {
	f := fake(wsList, modList)
	var notes strings.Builder
	if err := Apply(f, ".", "testenv", "hack/compat/x/testenv.mod", &notes); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"(cd . && go list -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv && GOWORK=off go list -modfile=../hack/compat/x/testenv.mod -m -f {{.Path}} {{.Version}} all)",
		"(cd testenv && GOWORK=off go mod edit -modfile=../hack/compat/x/testenv.mod -require=example.com/a@v1.2.0 -require=example.com/a-c@v0.9.2 -require=example.com/a/b@v1.4.0)",
		"(cd testenv && GOWORK=off go mod tidy -modfile=../hack/compat/x/testenv.mod)",
	}
	if strings.Join(f.Ran, "\n") != strings.Join(want, "\n") {
		t.Errorf("ran\n%s\nwant\n%s", strings.Join(f.Ran, "\n"), strings.Join(want, "\n"))
	}
	if got := notes.String(); got != "  testenv at the workspace's versions: example.com/a@v1.2.0 example.com/a-c@v0.9.2 example.com/a/b@v1.4.0\n" {
		t.Errorf("notes = %q", got)
	}
	f = fake(wsList, wsList)
	notes.Reset()
	if err := Apply(f, "/r", "m", "m/go.mod", &notes); err != nil || len(f.Ran) != 2 || notes.Len() != 0 {
		t.Errorf("nothing to move: %v, ran %q, notes %q", err, f.Ran, notes.String())
	}
	if at, err := AtLine(fake(wsList, ""), ".", "v0.9.1", "v0.19.2"); !at || err != nil {
		t.Errorf("AtLine = %v, %v", at, err)
	}
}
