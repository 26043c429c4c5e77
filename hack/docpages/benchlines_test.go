package docpages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// benchPage is the page whose schedules/s commands are checked.
const benchPage = "docs/benchmarks.md"

// checkBenchLines runs the shell of page's schedules/s commands on root
// and returns its problems and the lines it read.
func checkBenchLines(root fstest.MapFS, p page) ([]string, []docLine) {
	s := &shell{root: root, page: p, dir: ".", built: map[string]string{}}
	lines := commandLines(p)
	for _, l := range lines {
		s.run(l)
	}
	return s.problems, lines
}

// TestBenchmarksPageCommands: every schedules/s command of
// docs/benchmarks.md names packages, benchmarks (and their sub-benchmarks),
// tests, flags and variables that exist, and runs only binaries a line
// above built (benchlines.go); the explorer's lines also run
// (testenv/explore's TestBenchmarksPageRunsAsWritten).
func TestBenchmarksPageCommands(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, benchPage))
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{}
	for _, dir := range []string{"testenv", "testenv/explore", "testenv/cmd/testenv-server", "testenv/internal/startbench", "examples/realops"} {
		entries, err := os.ReadDir(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
				data, err := os.ReadFile(filepath.Join(root, dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				files[dir+"/"+e.Name()] = &fstest.MapFile{Data: data}
			}
		}
	}
	problems, lines := checkBenchLines(files, newPage(benchPage, string(b)))
	for _, p := range problems {
		t.Error(p)
	}
	for _, l := range lines {
		t.Logf("%s:%d: %s", benchPage, l.line, l.text)
	}
	if n := len(lines); n < 10 {
		t.Errorf("%s: %d schedules/s command lines read, want at least 10 (the explorer's benchmarks, RealOperatorSearch, the go test -c binaries, startbench): is benchLine still right?", benchPage, n)
	}
}

// TestBenchmarksPageCommandsFail: a renamed benchmark, sub-benchmark,
// test, flag, flag value, package or variable, and a binary no line
// builds, are each reported.
func TestBenchmarksPageCommandsFail(t *testing.T) {
	files := fstest.MapFS{
		"x/bench_test.go":    {Data: []byte("package x\n\nconst env = \"STATUSPATCH_X\"\n\nfunc BenchmarkSearch(b *testing.B) {\n\tb.Run(\"ray\", nil)\n}\n\nfunc TestExploreA(t *testing.T) {}\n")},
		"startbench/main.go": {Data: []byte("package main\n\nvar one = flag.String(\"one\", \"\", \"\")\n\nvar backends = []string{\"fullapi\"}\n")},
	}
	good := "```sh\n" +
		"cd x && go test -run '^$' -bench 'Search/(ray)$' -benchtime 1x\n" +
		"go test -c -o x.test .\n" +
		"STATUSPATCH_X=1 /usr/bin/time ./x.test -test.run 'TestExploreA$' -test.bench Search -test.v\n" +
		"```\n\nAnd `cd startbench && go build -o startbench\n. && ./startbench -one fullapi`.\n"
	if ps, lines := checkBenchLines(files, newPage("p.md", good)); len(ps) != 0 || len(lines) != 4 {
		t.Fatalf("a page that matches its files: %d lines, problems %q", len(lines), ps)
	}
	// The whole name, as go test matches it.
	if ps, _ := checkBenchLines(files, newPage("p.md", strings.Replace(good, "-bench 'Search/", "-bench '^BenchmarkSearch/", 1))); len(ps) != 0 {
		t.Errorf("-bench '^BenchmarkSearch/...': problems %q, want none", ps)
	}
	for _, c := range []struct{ from, to, want string }{
		{"-bench 'Search/", "-bench 'Searches/", "Searches matches no Benchmark function"},
		{"-bench 'Search/", "-bench '^Search/", "^Search matches no Benchmark function"},
		{"-test.bench Search", "-test.bench ^Search$", "^Search$ matches no Benchmark function"},
		{"(ray)$", "(rays)$", "(rays)$ matches no sub-test or sub-benchmark name"},
		{"TestExploreA$", "TestExploreB$", "TestExploreB$ matches no Test function"},
		{"-one fullapi", "-only fullapi", "-only: startbench defines no such flag"},
		{"-one fullapi", "-one full", `startbench has no "full"`},
		{"cd x &&", "cd y &&", "no folder y"},
		{"STATUSPATCH_X=1", "STATUSPATCH_Y=1", "STATUSPATCH_Y: nothing in x reads it"},
		{"./x.test", "./y.test", "which no line above builds"},
		{"-test.v", "-v", "a test binary's flags are -test.*"},
		// A flag of no value before the pattern does not take it.
		{"-test.bench Search", "-test.benchmem -test.bench Searches", "Searches matches no Benchmark function"},
		{"-test.bench Search", "-test.bench Searches -test.benchmem", "Searches matches no Benchmark function"},
		{"-bench 'Search/", "-benchmem -bench 'Searches/", "Searches matches no Benchmark function"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		ps, _ := checkBenchLines(files, newPage("p.md", bad))
		if len(ps) == 0 || !strings.Contains(strings.Join(ps, "\n"), c.want) {
			t.Errorf("%s -> %s: want a problem saying %q, got %q", c.from, c.to, c.want, ps)
		}
	}
}
