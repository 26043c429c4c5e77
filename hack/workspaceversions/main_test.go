package main

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// TestRun: the command line: DIR [MODFILE] (MODFILE relative to DIR),
// -is-line's answer as the exit status, usage errors 2.
func TestRun(t *testing.T) {
	answer := func(c gocmd.Cmd) (string, error) {
		if c.Workspace {
			return "sigs.k8s.io/controller-runtime v0.9.1\nk8s.io/api v0.19.2\nexample.com/x v1.2.0\n", nil
		}
		return "example.com/x v1.1.0\n", nil
	}
	f := &gocmd.Fake{Answer: answer}
	var stderr strings.Builder
	if code := run([]string{"-root", "/r", "a/realmod", "alt.mod"}, f, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "(cd /r && go list -m -f {{.Path}} {{.Version}} all)\n" +
		"(cd a/realmod && GOWORK=off go list -modfile=alt.mod -m -f {{.Path}} {{.Version}} all)\n" +
		"(cd a/realmod && GOWORK=off go mod edit -modfile=alt.mod -require=example.com/x@v1.2.0)\n" +
		"(cd a/realmod && GOWORK=off go mod tidy -modfile=alt.mod)"
	if got := strings.Join(f.Ran, "\n"); got != want {
		t.Errorf("ran\n%s\nwant\n%s", got, want)
	}
	if stderr.String() != "  realmod at the workspace's versions: example.com/x@v1.2.0\n" {
		t.Errorf("said %q", stderr.String())
	}
	f = &gocmd.Fake{Answer: answer}
	if code := run([]string{"m"}, f, &stderr); code != 0 || !strings.Contains(f.Ran[1], "(cd m && GOWORK=off go list -modfile=go.mod ") {
		t.Errorf("default MODFILE: exit %d, ran %q", code, f.Ran)
	}
	for args, code := range map[string]int{"-is-line v0.9.1 v0.19.2": 0, "-is-line v0.9.1 v0.19.3": 1, "": 2, "a b c": 2, "-is-line v0.9.1": 2} {
		if got := run(strings.Fields(args), &gocmd.Fake{Answer: answer}, &stderr); got != code {
			t.Errorf("%q: exit %d, want %d", args, got, code)
		}
	}
}
