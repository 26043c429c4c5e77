package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/machine"
)

// A Ratios section is go test -bench output (Count runs) in Dir turned
// into ours/theirs ratios by hack/benchratio (Ratio: its binary).
type Ratios struct {
	Dir, Ratio string
	Env        []string
	Args       []string // after go test -run '^$' -benchmem -count N
	Ours       string
}

// Run runs the benchmarks and prints the ratios.
func (r Ratios) Run(count int, w io.Writer) error {
	args := append([]string{"go", "test", "-run", "^$", "-benchmem", "-count", fmt.Sprint(count)}, r.Args...)
	out, err := Cmd{Dir: r.Dir, Env: r.Env, Args: args}.Output(w)
	if err != nil {
		return err
	}
	_, err = Cmd{Dir: r.Dir, Args: []string{r.Ratio, "-ours", r.Ours}, Stdin: strings.NewReader(out)}.Run(w, w)
	return err
}

// FlushSections are make bench's go benchmarks of the writes, in root;
// scaling selects FlushScaling's.
func FlushSections(root, ratio string, scaling bool) []Ratios {
	if scaling {
		return []Ratios{{Dir: root, Ratio: ratio, Args: []string{"./patcher", "-bench", "FlushScaling"}, Ours: "patcher"}}
	}
	return []Ratios{
		{Dir: root, Ratio: ratio, Args: []string{"./patcher", "-bench", "Flush$|Noop"}, Ours: "patcher"},
		{Dir: filepath.Join(root, Golden), Ratio: ratio, Env: []string{"GOWORK=off"}, Args: []string{"./api/fielddiff/v1", "-bench", "Generated"}, Ours: "generated"},
		{Dir: filepath.Join(root, "examples"), Ratio: ratio, Args: []string{"./internal/patchers", "-bench", "CycleShapes", "-benchtime", "200x"}, Ours: "generated"},
	}
}

// FlushTitles head FlushSections' sections.
var FlushTitles = []string{
	"## 1. Flush cost vs the handwritten patch (go test -bench)",
	"### The generated field-by-field diff (golden module, Deployment-shaped CRD kind)",
	"### The whole cycle on a held 100 KB status, as the reconcile pays it (examples module: cache read, answer decoded; CPU per cycle)",
}

// Contention is make bench's runs of testenv/internal/bench: a title and
// its flags each.
var Contention = []struct{ Title, Flags string }{
	{"## 4. Convergence under contention and requests per reconcile (in-process API server)", ""},
	{"### Retry's default budget at 32 writers x 20 appends (fails if any update exhausts it)", "-writers 32 -updates 20 -reconciles 0 -variants retry"},
	{"### Writers reading through caches, with and without lag, against requeue and a cluster-api-style helper (fails if a locked variant loses an update)", "-writers 2,8 -updates 5 -lag 0,50ms -reconciles 0 -bound 60s"},
	{"### Two controllers owning disjoint status fields: merge mode, apply mode with and without the lock, blind MergeFrom (fails if a patcher variant loses an update)", "-cowriters 8 -updates 20 -repeat 5"},
}

// Start times start-up to the first accepted write (a create and its
// status write): testenv's embedded server, its full API and
// controller-runtime's envtest on the same kube-apiserver and etcd
// binaries (make testenv-assets TESTENV_ASSETS_FLAGS=--etcd) and CRDs,
// each start in a process of its own, n each, the backends taking turns
// (testenv/internal/startbench); the load before and after, since wall
// times move with it on a shared machine.
func Start(root, bin string, n int, w io.Writer) error {
	out, err := Cmd{Dir: root, Args: []string{"make", "-s", "testenv-assets", "TESTENV_ASSETS_FLAGS=--etcd"}}.Output(w)
	if err != nil {
		return err
	}
	assets := LastLine(out)
	if _, err := (Cmd{Dir: filepath.Join(root, "testenv"), Args: []string{"go", "build", "-o", bin, "./internal/startbench"}}).Quiet(); err != nil {
		return err
	}
	fmt.Fprintf(w, "assets: %s\nload before: %s\n", assets, machine.Load())
	if _, err := (Cmd{Dir: root, Args: []string{bin, "-n", fmt.Sprint(n), "-assets", assets}}).Run(w, w); err != nil {
		return err
	}
	fmt.Fprintf(w, "load after: %s\n", machine.Load())
	return nil
}

// LastLine is out's last non-empty line.
func LastLine(out string) string {
	f := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(f[len(f)-1])
}

// Machine is the results' machine line: cores, memory, Go, CPU model.
func Machine(goVersion string) string {
	mem, cpu := "?", "?"
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb float64
		if _, err := fmt.Sscanf(field(b, "MemTotal:"), "%f", &kb); err == nil {
			mem = fmt.Sprintf("%.0f GiB", kb/(1<<20))
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		cpu = field(b, "model name")
	}
	return fmt.Sprintf("machine: %d cores, %s, %s, %s", runtime.NumCPU(), mem, strings.TrimSpace(goVersion), cpu)
}

// field is the value after the first line of b starting with key (after
// its colon, if key has none).
func field(b []byte, key string) string {
	for l := range bytes.Lines(b) {
		if s := string(l); strings.HasPrefix(s, key) {
			_, v, _ := strings.Cut(strings.TrimPrefix(s, key), ":")
			if strings.HasSuffix(key, ":") {
				v = strings.TrimPrefix(s, key)
			}
			return strings.TrimSpace(v)
		}
	}
	return ""
}
