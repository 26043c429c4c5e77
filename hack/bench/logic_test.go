package bench

import (
	"errors"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The benchmarks' logic, on samples: these run in make test.

func TestMedianAndRatio(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{{nil, 0}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := Median(c.v); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.v, got, c.want)
		}
	}
	if Ratio(1, 0) != "inf" || Ratio(1, 4) != "0.25" {
		t.Errorf("Ratio: %s %s", Ratio(1, 0), Ratio(1, 4))
	}
}

func TestCmd(t *testing.T) {
	out, err := Cmd{Dir: t.TempDir(), Env: []string{"X=y"}, Args: []string{"sh", "-c", "echo $X; pwd"}}.Output(os.Stderr)
	if err != nil || !strings.HasPrefix(out, "y\n") {
		t.Errorf("Output = %q, %v", out, err)
	}
	u, err := Cmd{Dir: ".", Args: []string{"sh", "-c", "echo oops >&2; exit 3"}}.Quiet()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(err.Error(), "oops") || !strings.Contains(err.Error(), "exit 3") {
		t.Errorf("Quiet of a failing command: %v", err)
	}
	if u.Wall <= 0 || u.PeakKiB <= 0 {
		t.Errorf("usage of a run: %+v", u)
	}
}

func TestGenerator(t *testing.T) {
	if got := ListArgs("a,b;c"); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("ListArgs(a,b;c) = %q", got)
	}
	if got := Timing("noise\nstatuspatch-gen timing: load 1s, generate 2s\n"); got != "load 1s, generate 2s" {
		t.Errorf("Timing = %q", got)
	}
	src, err := Kinds(3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "kinds.go", src, parser.ParseComments); err != nil {
		t.Fatalf("Kinds(3) does not parse: %v", err)
	}
	if n := CountLines("+kubebuilder:subresource:status", string(src)); n != 3 {
		t.Errorf("Kinds(3) has %d status subresources", n)
	}
	for _, f := range []string{"go.mod", "go.sum", "api"} {
		if _, err := os.Stat(filepath.Join("..", "..", Golden, f)); err != nil {
			t.Errorf("the golden module: %v", err)
		}
	}
}

func TestInstructionCounts(t *testing.T) {
	if n, err := Collected("==12== Events : Ir\n==12== Collected : 123456\n"); n != 123456 || err != nil {
		t.Errorf("Collected = %d, %v", n, err)
	}
	if _, err := Collected("valgrind: crashed"); err == nil {
		t.Error("Collected of a log without a count: no error")
	}
	if ir, ok := PerOp(1000, 1_001_000, 2_001_000); ir != 1000 || !ok {
		t.Errorf("PerOp of agreeing runs = %d, %v", ir, ok)
	}
	if _, ok := PerOp(1000, 1_001_000, 1_501_000); ok {
		t.Error("PerOp of runs 50% apart: agree")
	}
	b, a := Mem("goos: linux\nBenchmarkFlush/small/patcher-2  2000  812 ns/op  1024 B/op  52 allocs/op\nPASS\n")
	if b != "1024" || a != "52" {
		t.Errorf("Mem = %s, %s", b, a)
	}
	annotate := `--------------------------------------------------------------------------------
20,000 (100.0%)  PROGRAM TOTALS
--------------------------------------------------------------------------------
8,000 (40.00%)  ???:github.com/statuspatch/statuspatch/patcher.(*P).Flush [/tmp/x.test]
2,000 (10.00%)  /a/b.go:runtime.mallocgc [/tmp/x.test]
1,000 ( 5.00%)  /c/d.go:runtime.mallocgc [/tmp/x.test]
`
	ex, in := PerFunction(annotate, false), PerFunction(annotate, true)
	if ex["runtime.mallocgc"] != 3000 || in["runtime.mallocgc"] != 2000 || ex["github.com/statuspatch/statuspatch/patcher.(*P).Flush"] != 8000 {
		t.Errorf("PerFunction: exclusive %v, inclusive %v", ex, in)
	}
	rows := Compare(map[string]float64{"a": 100, "b": 1000}, map[string]float64{"b": 500, "c": 200}, "", 10, 2)
	if len(rows) != 2 || !strings.HasSuffix(rows[0], " b") || !strings.HasSuffix(rows[1], " c") || !strings.Contains(rows[0], "-50") {
		t.Errorf("Compare = %q", rows)
	}
}

func TestLintPairs(t *testing.T) {
	runs := []LintRun{{"standalone", 2, 4}, {"go-vet", 1, 2}, {"standalone", 3, 3}, {"go-vet", 2, 3}, {"standalone", 10, 10}, {"go-vet", 5, 5}}
	if w, c := LintMedians(runs, "standalone"); w != 3 || c != 4 {
		t.Errorf("LintMedians = %v, %v", w, c)
	}
	if w, c := LintRatios(runs, "standalone"); w != 2 || c != 2 {
		t.Errorf("LintRatios = %v, %v", w, c)
	}
	d := LintDriver{Bin: "/b/lint", Checker: true}
	if got := d.cmd("go-vet").Args; !slices.Equal(got, []string{"go", "vet", "-vettool=/b/lint", "./..."}) {
		t.Errorf("go vet side: %q", got)
	}
	if got := d.cmd("checker"); got.Env[0] != "STATUSPATCH_LINT_DRIVER=checker" || len(d.sides()) != 3 {
		t.Errorf("checker side: %v, sides %v", got, d.sides())
	}
}

func TestRealAPIModule(t *testing.T) {
	gomod, tools := RealAPIModule("/r", RealAPIs[:2])
	if !strings.Contains(gomod, "replace github.com/statuspatch/statuspatch => /r\n") || !strings.HasPrefix(gomod, "module example.com/realapis\n") {
		t.Errorf("go.mod:\n%s", gomod)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "tools.go", tools, 0); err != nil || CountLines(`_ "`, tools) != 3 {
		t.Errorf("tools.go (%v):\n%s", err, tools)
	}
}

func TestColdExploreModule(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "realops", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	got := ColdGoMod(string(b), "/r")
	if strings.Contains(got, "../") || !strings.Contains(got, "=> /r\n") || !strings.Contains(got, "=> /r/testenv\n") {
		t.Errorf("realops' go.mod keeps a relative replace or lost one:\n%s", got)
	}
	steps := Cold{Use: "1.N.x -align=false"}.ColdSteps()
	if s := strings.Join(steps[1], " "); !strings.HasSuffix(s, "use -p path 1.N.x -align=false") {
		t.Errorf("step 2: %s", s)
	}
}

func TestMachineAndLastLine(t *testing.T) {
	if got := LastLine("building\n/a/b\n\n"); got != "/a/b" {
		t.Errorf("LastLine = %q", got)
	}
	if got := field([]byte("MemTotal:  8000 kB\nmodel name\t: EPYC\n"), "model name"); got != "EPYC" {
		t.Errorf("field(model name) = %q", got)
	}
	if got := field([]byte("MemTotal:  8000 kB\n"), "MemTotal:"); got != "8000 kB" {
		t.Errorf("field(MemTotal:) = %q", got)
	}
	if m := Machine("go version go1.26"); !strings.HasPrefix(m, "machine: ") {
		t.Errorf("Machine = %q", m)
	}
}
