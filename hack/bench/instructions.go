package bench

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Instructions counts the small (or large) Flush of patcher/bench_test.go
// as instructions under callgrind, commit beside commit: BenchmarkFlush's
// write through the patcher (flushWithPatcher) and by hand
// (flushWithMergeFrom), counted inside that one function; then B/op and
// allocs/op, and the patcher's cost per function, the first commit beside
// the last. Each commit's test binary is built in a worktree under /tmp
// (removed after) and kept in Out. Ir/op is (Ir at 3001 iterations - Ir
// at 1001) / 2000, so setup and the first write's warm-up are not
// counted. GOGC=off keeps the collector's timing out of the count (its
// cost follows B/op and allocs/op); GOMAXPROCS=1, asyncpreemptoff=1 and
// cpu.rdtscp=off keep valgrind from tripping on Go's signals and RDTSCP.
type Instructions struct {
	Root, Out string
	Size      string // small or large
	Top       int    // functions listed per table
}

const patcherTest = module + "/patcher_test"

// callgrindEnv is the environment of every run under callgrind.
var callgrindEnv = []string{"GOGC=off", "GOMAXPROCS=1", "GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1"}

func (in Instructions) bench(variant string) string {
	return fmt.Sprintf("BenchmarkFlush$/^%s$/^%s$", in.Size, variant)
}

var collectedRE = regexp.MustCompile(`(?m)^==\d+== Collected : (\d+)`)

// Collected is the instruction count in callgrind's log.
func Collected(log string) (int64, error) {
	m := collectedRE.FindStringSubmatch(log)
	if m == nil {
		return 0, fmt.Errorf("no \"Collected :\" line in callgrind's output")
	}
	return strconv.ParseInt(m[1], 10, 64)
}

// count is the instructions inside fn in a run of n iterations.
func (in Instructions) count(bin, fn, variant string, n int) (int64, error) {
	base := fmt.Sprintf("%s.%s.%d", bin, variant, n)
	c := Cmd{Dir: in.Out, Env: callgrindEnv, Args: []string{"valgrind", "--tool=callgrind",
		"--toggle-collect=" + patcherTest + "." + fn, "--callgrind-out-file=" + base + ".cg",
		bin, "-test.run", "^$", "-test.bench", in.bench(variant), "-test.benchtime", fmt.Sprintf("%dx", n)}}
	var log strings.Builder
	_, err := c.Run(&log, &log)
	if werr := os.WriteFile(base+".log", []byte(log.String()), 0o644); err == nil {
		err = werr
	}
	if err != nil {
		return 0, err
	}
	return Collected(log.String())
}

// PerOp is the instructions per write from runs of 1001, 2001 and 3001
// iterations, and whether the two differences agree within 3% (callgrind
// now and then loses a goroutine's stack and undercounts a run).
func PerOp(a, b, c int64) (int64, bool) {
	d1, d2 := b-a, c-b
	diff := max(d1-d2, d2-d1)
	return (d1 + d2) / 2000, diff*100 <= 3*max(d1, d2)
}

// perOp tries three times for runs that agree; a figure whose runs never
// do is marked with "?".
func (in Instructions) perOp(bin, fn, variant string, log io.Writer) (string, error) {
	var ir int64
	for try := 1; try <= 3; try++ {
		var n [3]int64
		for i, iters := range []int{1001, 2001, 3001} {
			var err error
			if n[i], err = in.count(bin, fn, variant, iters); err != nil {
				return "", err
			}
		}
		var ok bool
		if ir, ok = PerOp(n[0], n[1], n[2]); ok {
			return strconv.FormatInt(ir, 10), nil
		}
		fmt.Fprintf(log, "%s at %s: %d and %d per 1000 writes disagree (try %d)\n", variant, filepath.Base(bin), n[1]-n[0], n[2]-n[1], try)
	}
	return strconv.FormatInt(ir, 10) + "?", nil
}

// Mem is B/op and allocs/op of a -benchmem line.
func Mem(out string) (bytes, allocs string) {
	for l := range strings.Lines(out) {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasPrefix(f[0], "BenchmarkFlush") {
			continue
		}
		for i := 1; i < len(f); i++ {
			switch f[i] {
			case "B/op":
				bytes = f[i-1]
			case "allocs/op":
				allocs = f[i-1]
			}
		}
	}
	return bytes, allocs
}

// Run prints one row per commit, then the per-function tables.
func (in Instructions) Run(commits []string, w, log io.Writer) error {
	if len(commits) < 2 {
		return fmt.Errorf("instructions: two commits or more, got %q", commits)
	}
	if err := os.MkdirAll(in.Out, 0o755); err != nil {
		return err
	}
	git := func(args ...string) Cmd { return Cmd{Dir: in.Root, Args: append([]string{"git"}, args...)} }
	var bins []string
	fmt.Fprintf(w, "%-10s %12s %12s %7s %9s %9s %8s %8s\n", "commit", "patcher/op", "hand/op", "ratio", "pB/op", "hB/op", "pallocs", "hallocs")
	for _, rev := range commits {
		sha, err := git("rev-parse", "--short", rev+"^{commit}").Output(log)
		if err != nil {
			return err
		}
		sha = strings.TrimSpace(sha)
		bin := filepath.Join(in.Out, "flush-"+sha+".test")
		if _, err := os.Stat(bin); err != nil {
			wt := filepath.Join(os.TempDir(), "bench-"+sha)
			if _, err := git("worktree", "add", "--detach", wt, sha).Quiet(); err != nil {
				return err
			}
			_, err := Cmd{Dir: wt, Env: []string{"GOWORK=off"}, Args: []string{"go", "test", "-c", "-o", bin, "./patcher"}}.Quiet()
			_, rerr := git("worktree", "remove", "--force", wt).Quiet()
			if err != nil {
				return err
			}
			if rerr != nil {
				return rerr
			}
		}
		bins = append(bins, bin)
		p, err := in.perOp(bin, "flushWithPatcher", "patcher", log)
		if err != nil {
			return err
		}
		h, err := in.perOp(bin, "flushWithMergeFrom", "mergefrom-optimistic", log)
		if err != nil {
			return err
		}
		var mem [2][2]string
		for i, v := range []string{"patcher", "mergefrom-optimistic"} {
			out, err := Cmd{Dir: in.Out, Args: []string{bin, "-test.run", "^$", "-test.bench", in.bench(v), "-test.benchtime", "2000x", "-test.benchmem"}}.Output(log)
			if err != nil {
				return err
			}
			mem[i][0], mem[i][1] = Mem(out)
		}
		pf, _ := strconv.ParseFloat(strings.TrimSuffix(p, "?"), 64)
		hf, _ := strconv.ParseFloat(strings.TrimSuffix(h, "?"), 64)
		fmt.Fprintf(w, "%-10s %12s %12s %7.3f %9s %9s %8s %8s\n", sha, p, h, pf/hf, mem[0][0], mem[1][0], mem[0][1], mem[1][1])
	}
	first, last := bins[0], bins[len(bins)-1]
	name := func(b string) string { return strings.TrimSuffix(filepath.Base(b), ".test") }
	for _, t := range []struct {
		title, filter string
		inclusive     bool
	}{
		{"exclusive Ir per write, patcher variant", "", false},
		{"inclusive Ir per write, statuspatch functions", module + "/", true},
	} {
		fmt.Fprintf(w, "\n%s: %s beside %s, largest change first\n", t.title, name(first), name(last))
		var per [2]map[string]float64
		for i, b := range []string{first, last} {
			args := []string{"callgrind_annotate", "--auto=no", "--threshold=100"}
			if t.inclusive {
				args = append(args, "--inclusive=yes")
			}
			out, err := Cmd{Dir: in.Out, Args: append(args, b+".patcher.2001.cg")}.Output(io.Discard)
			if err != nil {
				return err
			}
			per[i] = PerFunction(out, t.inclusive)
		}
		for _, r := range Compare(per[0], per[1], t.filter, 2002, in.Top) {
			fmt.Fprintln(w, r)
		}
	}
	return nil
}

var annotateRE = regexp.MustCompile(`^\s*([0-9,]+) \([ 0-9.]+%\)  (.*)$`)

// PerFunction reads callgrind_annotate's table: each function's Ir. A
// function inlined into others is listed once per source file: exclusive
// costs add up, inclusive ones overlap (the largest is kept).
func PerFunction(out string, inclusive bool) map[string]float64 {
	s := map[string]float64{}
	for l := range strings.Lines(out) {
		m := annotateRE.FindStringSubmatch(strings.TrimRight(l, "\n"))
		if m == nil || strings.Contains(l, "PROGRAM TOTALS") {
			continue
		}
		ir, _ := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		fn := m[2]
		if _, after, ok := strings.Cut(fn, ":"); ok {
			fn = after
		}
		fn, _, _ = strings.Cut(fn, " [")
		if inclusive {
			s[fn] = max(s[fn], ir)
		} else {
			s[fn] += ir
		}
	}
	return s
}

// Compare is the functions whose name starts with prefix, old beside new
// per write (divided by writes), largest change first, top of them.
func Compare(old, new map[string]float64, prefix string, writes float64, top int) []string {
	type row struct {
		fn   string
		o, n float64
	}
	var rows []row
	for fn := range mapKeys(old, new) {
		if strings.HasPrefix(fn, prefix) {
			rows = append(rows, row{fn, old[fn] / writes, new[fn] / writes})
		}
	}
	abs := func(r row) float64 { return max(r.n-r.o, r.o-r.n) }
	slices.SortFunc(rows, func(a, b row) int { return cmp.Or(cmp.Compare(abs(b), abs(a)), strings.Compare(a.fn, b.fn)) })
	var out []string
	for _, r := range rows[:min(top, len(rows))] {
		out = append(out, fmt.Sprintf("%10.0f %10.0f %+10.0f  %s", r.o, r.n, r.n-r.o, r.fn))
	}
	return out
}

func mapKeys(ms ...map[string]float64) map[string]bool {
	k := map[string]bool{}
	for _, m := range ms {
		for fn := range m {
			k[fn] = true
		}
	}
	return k
}
