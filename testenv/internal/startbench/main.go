// Command startbench measures how long a test waits for its API server:
// from start to the first write accepted (the create of a Widget and the
// write of its status), for testenv's embedded server, testenv's full API
// (WithFullAPI) and controller-runtime's envtest, on the same kube-apiserver
// and etcd binaries (-assets, the folder `make -s testenv-assets
// TESTENV_ASSETS_FLAGS=--etcd` prints) and the same CRDs (testapi's three).
//
//	cd testenv && go run ./internal/startbench -n 7 -assets "$(make -s -C .. testenv-assets TESTENV_ASSETS_FLAGS=--etcd)"
//
// Each start runs in a process of its own, as a test binary does, and the
// backends take turns within each repetition (the order rotates), so that
// the machine's load falls on all of them alike. It prints each run, then
// per backend the medians and the ratio to envtest's median. See
// make bench (hack/bench.Start) and docs/benchmarks.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

// mainEntry is when main began: package variables of package main are
// initialised after every imported package's init.
var mainEntry = time.Now()

// backends are the three starts, envtest last: the ratios are to it.
var backends = []string{"embedded", "fullapi", "envtest"}

func main() {
	n := flag.Int("n", 5, "repetitions of each backend")
	assets := flag.String("assets", os.Getenv("KUBEBUILDER_ASSETS"), "folder with kube-apiserver and etcd (default $KUBEBUILDER_ASSETS)")
	only := flag.String("backends", strings.Join(backends, ","), "comma-separated backends to run")
	one := flag.String("one", "", "internal: run one start of this backend in this process and print it as JSON")
	cpuprofile := flag.String("cpuprofile", "", "with -one: write this process's CPU profile of the start to this file")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(2, "startbench: unexpected arguments %q", flag.Args())
	}
	if *one != "" {
		r, err := runOne(*one, *assets, *cpuprofile)
		if err != nil {
			fail(1, "startbench: %s: %v", *one, err)
		}
		if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
			fail(1, "startbench: %v", err)
		}
		return
	}
	if *n < 1 {
		fail(2, "startbench: -n %d: need at least one repetition", *n)
	}
	chosen, err := pick(*only)
	if err != nil {
		fail(2, "startbench: -backends: %v", err)
	}
	if *assets == "" && (len(chosen) != 1 || chosen[0] != "embedded") {
		fail(2, "startbench: -assets (or KUBEBUILDER_ASSETS) must name the folder with kube-apiserver and etcd; "+
			"`make -s testenv-assets TESTENV_ASSETS_FLAGS=--etcd` prints it")
	}
	if err := run(os.Stdout, *n, *assets, chosen); err != nil {
		fail(1, "startbench: %v", err)
	}
}

func pick(list string) ([]string, error) {
	var out []string
	for _, b := range strings.Split(list, ",") {
		b = strings.TrimSpace(b)
		known := false
		for _, k := range backends {
			known = known || k == b
		}
		if !known {
			return nil, fmt.Errorf("unknown backend %q (want some of %s)", b, strings.Join(backends, ", "))
		}
		out = append(out, b)
	}
	return out, nil
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(code)
}

// result is one start, measured inside the child process from main's
// entry, and by the parent around it.
type result struct {
	Backend string `json:"backend"`
	// MainUnixNano is when main began: the parent's start time subtracted
	// gives the process's start (exec, runtime and package init).
	MainUnixNano int64 `json:"mainUnixNano"`
	// Phases from main's entry to the status write accepted, in order.
	Phases []phase `json:"phases"`
	// CPU is the CPU time used until the status write was accepted by this
	// process and by the server processes it started (kube-apiserver,
	// etcd), read from /proc.
	CPU time.Duration `json:"cpu"`
	// Init is filled by the parent: exec to main.
	Init time.Duration `json:"-"`
}

type phase struct {
	Name string        `json:"name"`
	D    time.Duration `json:"d"`
}

// ToWrite is from main's entry to the status write accepted.
func (r result) ToWrite() time.Duration {
	var d time.Duration
	for _, p := range r.Phases {
		d += p.D
	}
	return d
}
