package lint_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

const baselineSrc = `package adopt

import (
	"context"

	v1 "example.com/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func one(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))
	_ = c.Status().Patch(ctx, w, client.MergeFrom(w))
}

func two(ctx context.Context, c client.Client, w *v1.Widget) {
	_ = c.Status().Update(ctx, w)
}
`

// The baseline round-trips: written, then a clean run; a new write is
// reported and lines moved by unrelated edits are not; a write that is
// gone shows up as a stale entry; a missing file is an error.
func TestBaselineRoundTrip(t *testing.T) {
	gopath := t.TempDir()
	src := filepath.Join(gopath, "src")
	if out, err := exec.Command("cp", "-r", filepath.Join(analysistest.TestData(), "src"), src).CombinedOutput(); err != nil {
		t.Fatalf("copy testdata: %v\n%s", err, out)
	}
	file := filepath.Join(src, "adopt", "adopt.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, baselineSrc)
	baseline := filepath.Join(gopath, "statuspatch.baseline")
	messages := func(cfg lint.Config) []string {
		t.Helper()
		var out []string
		for _, r := range analysistest.Run(&discard{t}, gopath, lint.NewAnalyzer(cfg), "adopt") {
			if r.Err != nil {
				out = append(out, "error: "+r.Err.Error())
			}
			for _, d := range r.Diagnostics {
				out = append(out, r.Pass.Fset.Position(d.Pos).String()+": "+d.Message)
			}
		}
		return out
	}

	if got := messages(lint.Config{Audit: true, WriteBaseline: baseline}); len(got) != 0 {
		t.Fatalf("-write-baseline reported %v, want nothing", got)
	}
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "adopt/adopt.go\t"); n != 3 {
		t.Fatalf("baseline has %d entries, want 3:\n%s", n, data)
	}
	audit := lint.Config{Audit: true, Baseline: baseline}
	if got := messages(audit); len(got) != 0 {
		t.Errorf("clean run with the baseline: %v", got)
	}
	if got := messages(lint.Config{CI: true, Baseline: baseline}); len(got) != 0 {
		t.Errorf("-ci with an audit baseline: %v", got)
	}

	// Unrelated edits move every line; one new write.
	edited := strings.Replace(baselineSrc, "func one(", "// moved down\n\nfunc one(", 1) +
		"\nfunc three(ctx context.Context, c client.Client, w *v1.Widget) {\n\t_ = c.Status().Patch(ctx, w, client.MergeFrom(w.DeepCopyObject().(*v1.Widget)))\n}\n"
	writeFile(t, file, edited)
	if got := messages(audit); len(got) != 1 || !strings.Contains(got[0], "blind: Status().Patch of Widget") || !strings.Contains(got[0], "adopt.go:22:") {
		t.Errorf("after a new write: %v, want only it, at adopt.go:22", got)
	}

	// A baselined write removed: its entry is stale.
	writeFile(t, file, strings.Replace(baselineSrc, "\t_ = c.Status().Update(ctx, w)\n", "", 1))
	got := messages(audit)
	if len(got) != 1 || !strings.Contains(got[0], "stale baseline entry: Status().Update of Widget (two:") {
		t.Errorf("after removing a write: %v, want one stale entry", got)
	}

	if got := messages(lint.Config{Baseline: filepath.Join(gopath, "missing")}); len(got) != 1 || !strings.HasPrefix(got[0], "error: ") {
		t.Errorf("missing baseline: %v, want an error", got)
	}
}
