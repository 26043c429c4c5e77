package main

import (
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// TestNewcomerLinesAtOnce: two lines run at once and no third; each line's
// output comes prefixed with its name, a last line without a newline too;
// the summary keeps the lines' order when the second ends first.
func TestNewcomerLinesAtOnce(t *testing.T) {
	tab := sampleTable(t)
	sel, _ := newcomerSelection(tab, []string{"all"})
	var out strings.Builder
	rt := &route{r: runner{prog: "newcomer-test", stdout: &out, stderr: io.Discard}, loadFn: func() string { return "1" }}
	started := make(chan string, len(sel))
	release := map[string]chan struct{}{}
	for _, l := range sel {
		release[l.Name] = make(chan struct{})
	}
	var mu sync.Mutex
	running, most := 0, 0
	done := make(chan error, 1)
	go func() {
		done <- rt.newcomerLines(sel, 2, func(name string, w io.Writer) int {
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			if _, err := io.WriteString(w, "hello from "+name+"\npartial"); err != nil {
				t.Error(err)
			}
			started <- name
			<-release[name]
			mu.Lock()
			running--
			mu.Unlock()
			if name == "v0.42" {
				return 4
			}
			return 0
		})
	}()
	// The first two start together (each waits for its release); the
	// third has not started.
	first := []string{<-started, <-started}
	slices.Sort(first)
	if !slices.Equal(first, []string{"v0.41", "v0.42"}) {
		t.Fatalf("started first %q, want v0.41 and v0.42", first)
	}
	select {
	case name := <-started:
		t.Fatalf("%s started while two ran", name)
	default:
	}
	close(release["v0.42"]) // the second ends first
	if name := <-started; name != "v0.43" {
		t.Fatalf("then %s started, want v0.43", name)
	}
	close(release["v0.41"])
	close(release["v0.43"])
	err := <-done
	if most != 2 {
		t.Errorf("at most %d lines at once, want 2", most)
	}
	if err == nil || !strings.Contains(err.Error(), "failed at line(s) v0.42 ") {
		t.Errorf("err = %v, want v0.42 named", err)
	}
	o := out.String()
	for _, l := range []string{
		"v0.41| hello from v0.41\n", "v0.41| partial\n",
		"v0.43| hello from v0.43\n",
		"=== newcomer-test: line v0.42: FAILED (exit 4)",
		"  line v0.41: ok, 0 min 0 s, load 1 at its end\n  line v0.42: FAILED (exit 4), 0 min 0 s, load 1 at its end\n  line v0.43: ok",
	} {
		if !strings.Contains(o, l) {
			t.Errorf("output lacks %q:\n%s", l, o)
		}
	}
	if strings.Index(o, "line v0.42: FAILED") > strings.Index(o, "line v0.41: ok") {
		t.Errorf("v0.42 ended first, but its line is not first:\n%s", o)
	}
}

func TestNewcomerJobs(t *testing.T) {
	for v, want := range map[string]int{"": 2, "1": 1, "3": 3} {
		if got, err := newcomerJobs(v); err != nil || got != want {
			t.Errorf("newcomerJobs(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-1", "two"} {
		if _, err := newcomerJobs(bad); err == nil || !strings.Contains(err.Error(), "NEWCOMER_JOBS") {
			t.Errorf("newcomerJobs(%q): err %v, want one naming NEWCOMER_JOBS", bad, err)
		}
	}
}

// TestHeldProxy: a line's run takes the proxy of the run of every line
// from the environment (no lock, nothing to drop), and refuses a broken one.
func TestHeldProxy(t *testing.T) {
	settings := releaseproxy.Env("https://proxy.golang.org,direct", "/m c", "/p", "-mod=mod")
	kv, err := heldProxyEnv("v0.1.0", settings)
	if err != nil {
		t.Fatal(err)
	}
	name, value, _ := strings.Cut(kv, "=")
	if name != heldProxyVar {
		t.Fatalf("variable %s", name)
	}
	t.Setenv(heldProxyVar, value)
	var out strings.Builder
	rt := &route{r: runner{prog: "newcomer-test", stdout: &out, stderr: io.Discard}}
	got, err := rt.lineProxy()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, settings) || rt.version != "v0.1.0" {
		t.Errorf("lineProxy = %v, version %s; want %v, v0.1.0", got, rt.version, settings)
	}
	if rt.lock != nil || rt.caches != nil {
		t.Error("a line's run on the held proxy took the lock or will drop the caches")
	}
	if !strings.Contains(out.String(), "module proxy at v0.1.0 (the one the run of every line built") {
		t.Errorf("output %q", out.String())
	}
	for _, bad := range []string{"", "{}", `{"Version":"v0.1.0"}`, "not json"} {
		os.Setenv(heldProxyVar, bad)
		if _, err := rt.lineProxy(); err == nil || !strings.Contains(err.Error(), heldProxyVar) {
			t.Errorf("%s=%q: err %v", heldProxyVar, bad, err)
		}
	}
}
