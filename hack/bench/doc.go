// Package bench holds the benchmarks of statuspatch against its
// alternatives, as go test suites of this package that run only with
// STATUSPATCH_BENCH=1 (make test's go test ./... skips them; their logic's
// unit tests run there). make bench runs TestBench (results also in
// hack/.bench/results.md); BENCH picks another suite, BENCH_FLAGS gives it
// flags:
//
//	make bench                                     # TestBench: every section below, in order
//	make bench BENCH=Bench/Start BENCH_FLAGS=-starts=7
//	make bench BENCH_FLAGS=-skip=TestBench/Start   # no start-up runs
//	make bench BENCH=Instructions BENCH_FLAGS="-commits='87f9631 HEAD'"
//	make bench BENCH=LintDriver BENCH_FLAGS=-edit
//	make bench BENCH=RealAPIs BENCH_FLAGS=-work=/tmp/realapis
//	make bench BENCH=ColdExplore BENCH_FLAGS=-work=/tmp/cold46
//
// The suites:
//
//	TestBench/Flush             Flush against the handwritten patch, the generated
//	                            diff, the whole cycle (hack/benchratio's ratios; -reps)
//	TestBench/Generator         statuspatch-gen against controller-gen object, same
//	                            packages (Gen; -gen-dir, -gen-paths, -gen-out, -runs)
//	TestBench/FlushScaling      Flush as the status grows
//	TestBench/GeneratorScaling  the generator as the kinds grow (Synth; -kinds)
//	TestBench/Start             start-up to the first write against envtest (Start; -starts)
//	TestBench/Contention        testenv/internal/bench's runs (Contention)
//	TestInstructions            the small Flush in instructions under callgrind, commit
//	                            beside commit (Instructions; -commits, -size, -top; valgrind)
//	TestLintDriver              standalone statuspatch-lint against go vet -vettool
//	                            (LintDriver; -pairs, -checker, -edit)
//	TestRealAPIs                statuspatch-gen on published operators' APIs (RunRealAPIs; -work)
//	TestColdExplore             a new user's cold path to the explorer's first
//	                            schedule (Cold; -work, -use)
//
// TestMain builds statuspatch-gen and hack/benchratio once. Cmd is the one
// exec helper: it times each command (wall, CPU, peak RSS) from the
// process's own accounting, so GNU time is not needed.
package bench
