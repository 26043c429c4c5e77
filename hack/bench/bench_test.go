package bench

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// optIn is the variable that runs the benchmarks.
const optIn = "STATUSPATCH_BENCH"

var (
	reps     = flag.Int("reps", 8, "repetitions of the go benchmarks (go test -count)")
	runs     = flag.Int("runs", 5, "runs of each generator after a warm-up")
	genDir   = flag.String("gen-dir", "", "Generator: the module (default: a copy of the golden module)")
	genPaths = flag.String("gen-paths", "./api/...", "Generator: the paths= value")
	genOut   = flag.String("gen-out", "", "Generator: an output option for both tools (output:none)")
	kinds    = flag.String("kinds", "1,10,100", "GeneratorScaling: the numbers of kinds")
	starts   = flag.Int("starts", 5, "Start: starts of each backend")
	commits  = flag.String("commits", "87f9631 HEAD", "Instructions: the commits, a row each")
	size     = flag.String("size", "small", "Instructions: small or large")
	top      = flag.Int("top", 40, "Instructions: functions per table")
	out      = flag.String("out", filepath.Join(os.TempDir(), "bench-flush-instructions"), "Instructions: where the binaries and counts stay")
	pairs    = flag.Int("pairs", 7, "LintDriver: pairs of runs")
	checker  = flag.Bool("checker", false, "LintDriver: the full checker as a third side")
	edit     = flag.Bool("edit", false, "LintDriver: after an edit of a package every controller imports")
	workDir  = flag.String("work", "", "RealAPIs, ColdExplore: the scratch folder (default: a temporary one; ColdExplore removes it first)")
	use      = flag.String("use", "module", "ColdExplore: testenv-assets use's argument")
)

// Set by TestMain when the benchmarks run.
var root, tmp, gen, ratio string

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(optIn) != "1" {
		os.Exit(m.Run())
	}
	if err := setUp(); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(tmp)
	os.Exit(code)
}

func setUp() (err error) {
	if root, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		return err
	}
	if tmp, err = os.MkdirTemp("", "statuspatch-bench-"); err != nil {
		return err
	}
	gen, ratio = filepath.Join(tmp, "statuspatch-gen"), filepath.Join(tmp, "benchratio")
	for _, c := range []Cmd{
		{Dir: filepath.Join(root, "cmd", "statuspatch-gen"), Args: []string{"go", "build", "-o", gen, "."}},
		{Dir: filepath.Join(root, "hack"), Args: []string{"go", "build", "-o", ratio, "./benchratio"}},
	} {
		if _, err := c.Quiet(); err != nil {
			return err
		}
	}
	return nil
}

// skip skips t unless the benchmarks run.
func skip(t *testing.T) {
	t.Helper()
	if root == "" {
		t.Skipf("the benchmarks run with %s=1 (make bench)", optIn)
	}
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestBench is make bench: each section a subtest, in order.
func TestBench(t *testing.T) {
	skip(t)
	check(t, os.MkdirAll(filepath.Join(root, "hack", ".bench"), 0o755))
	results, err := os.Create(filepath.Join(root, "hack", ".bench", "results.md"))
	check(t, err)
	defer results.Close()
	goVersion, err := Cmd{Dir: root, Args: []string{"go", "env", "GOVERSION"}}.Output(t.Output())
	check(t, err)
	fmt.Fprintf(io.MultiWriter(t.Output(), results), "# statuspatch benchmarks\n\n%s\n", Machine(goVersion))
	section := func(name, title string, f func(io.Writer) error) {
		t.Run(name, func(t *testing.T) {
			w := io.MultiWriter(t.Output(), results)
			fmt.Fprintf(w, "\n%s\n\n", title)
			check(t, f(w))
		})
	}
	section("Flush", FlushTitles[0]+fmt.Sprintf(", median of %d", *reps), func(w io.Writer) error {
		for i, s := range FlushSections(root, ratio, false) {
			if i > 0 {
				fmt.Fprintf(w, "\n%s\n\n", FlushTitles[i])
			}
			if err := s.Run(*reps, w); err != nil {
				return err
			}
		}
		return nil
	})
	section("Generator", fmt.Sprintf("## 2. Generator vs controller-gen object (median of %d after a warm-up)", *runs), func(w io.Writer) error {
		dir := *genDir
		if dir == "" {
			dir = filepath.Join(tmp, "goldens")
			if err := CopyGolden(root, dir); err != nil {
				return err
			}
		}
		return generator(dir, *genPaths, *genOut).Run(w)
	})
	section("FlushScaling", "## 3. Scaling\n\n### Flush cost as the status grows (spec ~1 KB)", func(w io.Writer) error {
		return FlushSections(root, ratio, true)[0].Run(*reps, w)
	})
	section("GeneratorScaling", "### Generator time as the number of kinds grows", func(w io.Writer) error {
		var heads, all []string
		for _, k := range strings.Split(*kinds, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(k))
			if err != nil {
				return fmt.Errorf("-kinds %q: %w", *kinds, err)
			}
			dir := filepath.Join(tmp, "scale-"+k)
			if err := Synth(root, dir, n); err != nil {
				return err
			}
			var b strings.Builder
			if err := generator(dir, "./api/...", "").Run(&b); err != nil {
				return err
			}
			head, rest, _ := strings.Cut(b.String(), "\n")
			heads = append(heads, fmt.Sprintf("kinds=%d: %s", n, head))
			all = append(all, heads[len(heads)-1], "    "+strings.ReplaceAll(strings.TrimSpace(rest), "\n", "\n    "))
		}
		_, err := fmt.Fprintf(w, "%s\n\n%s\n", strings.Join(heads, "\n"), strings.Join(all, "\n"))
		return err
	})
	section("Start", "## Start-up to the first write: testenv embedded and full API vs envtest, same binaries", func(w io.Writer) error {
		return Start(root, filepath.Join(tmp, "startbench"), *starts, w)
	})
	section("Contention", Contention[0].Title, func(w io.Writer) error {
		for i, c := range Contention {
			if i > 0 {
				fmt.Fprintf(w, "\n%s\n\n", c.Title)
			}
			args := append([]string{"go", "run", "./internal/bench"}, strings.Fields(c.Flags)...)
			if _, err := (Cmd{Dir: filepath.Join(root, "testenv"), Args: args}).Run(w, w); err != nil {
				return err
			}
		}
		return nil
	})
	t.Logf("written to %s", results.Name())
}

// generator is Gen on dir, with controller-gen at the Makefile's pin
// (make builds bin/controller-gen when it is missing).
func generator(dir, paths, out string) Gen {
	cg := filepath.Join(root, "bin", "controller-gen")
	if _, err := os.Stat(cg); err != nil {
		_, _ = Cmd{Dir: root, Args: []string{"make", "-s", cg}}.Quiet()
	}
	return Gen{StatuspatchGen: gen, ControllerGen: cg, Dir: dir, Paths: paths, Out: out, Runs: *runs}
}

func TestInstructions(t *testing.T) {
	skip(t)
	in := Instructions{Root: root, Out: *out, Size: *size, Top: *top}
	check(t, in.Run(strings.Fields(*commits), t.Output(), t.Output()))
}

func TestLintDriver(t *testing.T) {
	skip(t)
	d := LintDriver{Root: root, Bin: filepath.Join(tmp, "statuspatch-lint"), Pairs: *pairs, Checker: *checker, Edit: *edit}
	check(t, d.Run(t.Output()))
}

func TestRealAPIs(t *testing.T) {
	skip(t)
	work := *workDir
	if work == "" {
		work = t.TempDir()
	}
	check(t, RunRealAPIs(root, gen, work, RealAPIs, t.Output()))
}

func TestColdExplore(t *testing.T) {
	skip(t)
	work := *workDir
	if work == "" {
		work = t.TempDir()
	}
	check(t, Cold{Root: root, Work: work, Use: *use}.Run(t.Output()))
}
