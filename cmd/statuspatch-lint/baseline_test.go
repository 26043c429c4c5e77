package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const baselineSrc = `package adopt

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func one(ctx context.Context, c client.Client, d *appsv1.Deployment) {
	_ = c.Status().Patch(ctx, d, client.MergeFrom(d))
	_ = c.Status().Patch(ctx, d, client.MergeFrom(d))
}

func two(ctx context.Context, c client.Client, d *appsv1.Deployment) {
	_ = c.Status().Update(ctx, d)
}
`

// The command's baseline, on realmod's code over the stubs (stubRealmod):
// written (exit 0, nothing reported), then clean in every mode; a new
// write is reported and lines moved by unrelated edits are not; a write
// that is gone shows up as a stale entry; a missing file is an error; -fix
// does not combine.
func TestBaselineInTheCommand(t *testing.T) {
	bin := buildLint(t)
	mod := stubRealmod(t)
	file := filepath.Join(mod, "adopt", "adopt.go")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(baselineSrc)
	baseline := filepath.Join(t.TempDir(), "statuspatch.baseline")

	out, code := lintIn(t, mod, bin, "-audit", "-write-baseline="+baseline, "./adopt")
	if code != 0 || strings.Contains(out, "adopt.go:") {
		t.Fatalf("-write-baseline: exit status %d, want 0 and nothing reported:\n%s", code, out)
	}
	data, err := os.ReadFile(baseline)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"example.com/realmod/adopt/adopt.go\tone\t", "example.com/realmod/adopt/adopt.go\ttwo\t"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("baseline lacks an entry starting %q:\n%s", want, data)
		}
	}
	if n := strings.Count(string(data), "adopt/adopt.go\t"); n != 3 || !strings.Contains(string(data), "#2\n") {
		t.Fatalf("baseline has %d entries, want 3, the second identical call with #2:\n%s", n, data)
	}
	for _, mode := range [][]string{{"-audit"}, {"-ci"}, {}} {
		args := append(append([]string{}, mode...), "-baseline", baseline, "./adopt")
		if out, code := lintIn(t, mod, bin, args...); code != 0 || strings.Contains(out, "adopt.go") {
			t.Errorf("%v with the audit baseline: exit status %d, want 0 and nothing reported:\n%s", args, code, out)
		}
	}
	// Without the baseline the same run reports: the filter is what hides them.
	if out, code := lintIn(t, mod, bin, "-audit", "./adopt"); code != 3 || strings.Count(out, "adopt.go:") != 3 {
		t.Errorf("-audit without the baseline: exit status %d, want 3 and the 3 writes:\n%s", code, out)
	}

	// Unrelated edits move every line; one new write.
	write(strings.Replace(baselineSrc, "func one(", "// moved down\n\nfunc one(", 1) +
		"\nfunc three(ctx context.Context, c client.Client, d *appsv1.Deployment) {\n\t_ = c.Status().Patch(ctx, d, client.MergeFrom(d.DeepCopy()))\n}\n")
	out, code = lintIn(t, mod, bin, "-audit", "-baseline="+baseline, "./adopt")
	if code != 3 || strings.Count(out, "adopt.go:") != 1 || !strings.Contains(out, "adopt.go:22:6: blind: Status().Patch of Deployment") {
		t.Errorf("after a new write: exit status %d, want 3 and only it, at adopt.go:22:\n%s", code, out)
	}

	// A baselined write removed: its entry is stale, in every mode.
	write(strings.Replace(baselineSrc, "\t_ = c.Status().Update(ctx, d)\n", "", 1))
	for _, mode := range []string{"-audit", "-ci"} {
		out, code = lintIn(t, mod, bin, mode, "-baseline="+baseline, "./adopt")
		if code != 3 || strings.Count(out, "adopt.go:") != 1 || !strings.Contains(out, "adopt.go:1:1: stale baseline entry: a call in two (") {
			t.Errorf("%s after removing a write: exit status %d, want 3 and one stale entry:\n%s", mode, code, out)
		}
	}
	// The same with a checker flag's value given apart: the listing of
	// the packages parses it with the checker's own flags (-flags).
	if out, code := lintIn(t, mod, bin, "-audit", "-c", "3", "-baseline", baseline, "./adopt"); code != 3 || !strings.Contains(out, "adopt.go:1:1: stale baseline entry: a call in two (") {
		t.Errorf("-c 3 after removing a write: exit status %d, want 3 and the stale entry:\n%s", code, out)
	}
	defs, err := checkerFlags(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(defs, checkerFlag{Name: "c"}) || !slices.Contains(defs, checkerFlag{Name: "test", Bool: true}) {
		t.Errorf("the checker's -flags lacks -c or the bool -test: %v", defs)
	}
	// Packages not analyzed keep their entries quiet.
	if out, code := lintIn(t, mod, bin, "-audit", "-baseline="+baseline, "./controllers"); strings.Contains(out, "stale") {
		t.Errorf("a run over other packages reported stale entries (exit status %d):\n%s", code, out)
	}

	if out, code := lintIn(t, mod, bin, "-baseline="+filepath.Join(mod, "missing"), "./adopt"); code != 1 || !strings.Contains(out, "statuspatch baseline: open ") {
		t.Errorf("missing baseline: exit status %d, want 1 and the error:\n%s", code, out)
	}
	if out, code := lintIn(t, mod, bin, "-fix", "-baseline="+baseline, "./adopt"); code != 2 || !strings.Contains(out, "-fix does not combine with -baseline") {
		t.Errorf("-fix with -baseline: exit status %d, want 2 and the refusal:\n%s", code, out)
	}
}
