package explore_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchDocLine is a command of docs/benchmarks.md that runs this
// package's benchmarks: go test ./explore/ -bench, or the binary go test
// -c built, ../explore.test -test.bench.
var (
	benchDocLine = regexp.MustCompile(`(?:go test \./explore/|\.\./explore\.test) [^` + "`" + `\n]*-(?:test\.)?bench `)
	benchDocFlag = regexp.MustCompile(`\s-(?:test\.)?([\w.]+)(?:[ =]('[^']*'|[^\s'-]\S*))?`)
	benchResult  = regexp.MustCompile(`(?m)^Benchmark(\S+?)(?:-\d+)?\s+\d+\s.*\sschedules/s`)
)

// TestBenchmarksPageRunsAsWritten runs each schedules/s command of
// docs/benchmarks.md that runs this package's benchmarks, as written, in a
// short form: on this test binary (what go test -c -o explore.test
// ./explore/ builds), with -test.benchtime 1x and -test.short (a search
// of depth 1, benchDepth) and without -count; the same flags and patterns
// run once. Each alternative of its -bench pattern must report
// schedules/s: a benchmark or sub-benchmark renamed, or a flag the
// binary does not know, fails here. (hack/docpages'
// TestBenchmarksPageCommands checks every such line, the real
// operators' too, against the files.)
func TestBenchmarksPageRunsAsWritten(t *testing.T) {
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST")
	page, err := os.ReadFile("../../docs/benchmarks.md")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	server, err := serverBinary()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("testenv-server (built once per test binary): %s", time.Since(start).Round(time.Millisecond))
	text := strings.ReplaceAll(string(page), `\|`, "|")
	var ran []string
	for _, m := range benchDocLine.FindAllStringIndex(text, -1) {
		end := m[1] + strings.IndexAny(text[m[1]:], "`\n")
		line := text[m[0]:end]
		args, bench := benchDocArgs(t, line)
		if bench == "" || slices.Contains(ran, strings.Join(args, " ")) {
			continue
		}
		ran = append(ran, strings.Join(args, " "))
		cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
		cmd.Env = append(os.Environ(), envServerBinary+"="+server)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("docs/benchmarks.md: %s: as explore.test %s: %s", line, strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("docs/benchmarks.md: %s: as explore.test %s: %v\n%s", line, strings.Join(args, " "), err, out)
			continue
		}
		for _, alt := range strings.Split(strings.Split(bench, "/")[0], "|") {
			re, err := regexp.Compile(alt)
			if err != nil {
				t.Fatalf("docs/benchmarks.md: %s: %v", line, err)
			}
			found := false
			for _, r := range benchResult.FindAllStringSubmatch(string(out), -1) {
				found = found || re.MatchString(strings.Split(r[1], "/")[0])
			}
			if !found {
				t.Errorf("docs/benchmarks.md: %s: no benchmark matching %s reported schedules/s:\n%s", line, alt, out)
			}
		}
	}
	if len(ran) < 3 {
		t.Errorf("docs/benchmarks.md: ran %d distinct commands of this package's benchmarks, want at least 3 (ParallelSearch/server, ChildrenSearch, both): is benchDocLine still right? %q", len(ran), ran)
	}
}

// benchDocArgs are the test binary's flags for a documented command's
// flags, in their short form, and its -bench pattern; a flag it does not
// know fails t.
func benchDocArgs(t *testing.T, line string) (args []string, bench string) {
	t.Helper()
	for _, f := range benchDocFlag.FindAllStringSubmatch(line, -1) {
		name, value := f[1], strings.Trim(f[2], "'")
		switch name {
		case "run", "bench":
			args = append(args, "-test."+name+"="+value)
			if name == "bench" {
				bench = value
			}
		case "benchtime", "count": // 1x, once, below
		case "v":
			args = append(args, "-test.v")
		default:
			t.Errorf("docs/benchmarks.md: %s: -%s: no short form known for it (benchDocArgs)", line, name)
		}
	}
	return append(args, "-test.benchtime=1x", "-test.short"), bench
}
