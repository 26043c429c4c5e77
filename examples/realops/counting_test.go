package realops

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv"
)

// countingEnv is env's server reached through a client like env.Client
// (client.New on env.Config, env.Scheme, env.Mapper) whose transport
// counts every request by verb, resource and caller: where a schedule's
// requests go. It is an explore.APIServer.
type countingEnv struct {
	env *testenv.Env
	// Config is env.Config through the counting transport, for what the
	// operator sends around the explorer (its clientset, its Pod exec).
	Config *rest.Config
	c      client.Client
	mu     sync.Mutex
	by     map[string]int
}

func newCountingEnv(t testing.TB, env *testenv.Env) *countingEnv {
	t.Helper()
	e := &countingEnv{env: env, by: map[string]int{}}
	cfg := rest.CopyConfig(env.Config)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return countingTransport{rt, e} })
	c, err := client.New(cfg, client.Options{Scheme: env.Scheme, Mapper: env.Mapper})
	if err != nil {
		t.Fatalf("counting client of %s: %v", env.Config.Host, err)
	}
	e.c, e.Config = c, cfg
	return e
}

func (e *countingEnv) ServerClient() client.Client { return e.c }

type countingTransport struct {
	rt http.RoundTripper
	e  *countingEnv
}

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	key := verbResource(r) + " | " + caller()
	t.e.mu.Lock()
	t.e.by[key]++
	t.e.mu.Unlock()
	return t.rt.RoundTrip(r)
}

// verbResource is the request's verb as kube-apiserver's metrics name it
// (list, watch, get, create, update, patch, delete, deletecollection) and
// its resource, with the subresource after a slash.
func verbResource(r *http.Request) string {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	// /api/v1/... or /apis/group/version/...
	if len(parts) > 0 && parts[0] == "apis" && len(parts) >= 3 {
		parts = parts[3:]
	} else if len(parts) >= 2 {
		parts = parts[2:]
	}
	if len(parts) >= 2 && parts[0] == "namespaces" && len(parts) != 2 {
		parts = parts[2:]
	}
	resource, named := "", false
	if len(parts) > 0 {
		resource = parts[0]
		named = len(parts) > 1
		if len(parts) > 2 {
			resource += "/" + parts[2]
		}
	}
	verb := strings.ToLower(r.Method)
	switch {
	case r.Method == http.MethodGet && r.URL.Query().Get("watch") == "true":
		verb = "watch"
	case r.Method == http.MethodGet && !named:
		verb = "list"
	case r.Method == http.MethodPost:
		verb = "create"
	case r.Method == http.MethodPut:
		verb = "update"
	case r.Method == http.MethodDelete && !named:
		verb = "deletecollection"
	}
	return verb + " " + resource
}

// caller names who sent a request: the reset, the operator (its own
// packages), the scenario (this package's actions and objects) or the
// explorer, with the explorer's innermost function that sent it.
func caller() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	inner, who := "", "explorer"
	for {
		f, more := frames.Next()
		fn := f.Function
		switch {
		case strings.Contains(fn, "/explore/internal/reset."):
			who = "reset"
		case strings.Contains(fn, "rabbitmq/cluster-operator") || strings.Contains(fn, "ray-project/kuberay"):
			who = "operator"
		case strings.Contains(fn, "examples/realops.") && who == "explorer":
			who = "scenario"
		case inner == "" && strings.Contains(fn, "statuspatch/testenv/explore"):
			inner = fn[strings.LastIndex(fn, "/")+1:]
		}
		if who == "reset" || who == "operator" || !more {
			break
		}
	}
	return who + " (" + inner + ")"
}

// counts is every request so far, by verb, resource and caller.
func (e *countingEnv) counts() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.by)
}

// perSchedule logs the requests between before and now per schedule, most
// first, and their sum by caller; it returns the requests a schedule.
func perSchedule(b testing.TB, before, after map[string]int, schedules int) float64 {
	b.Helper()
	n := float64(max(schedules, 1))
	diff, byWho, total := map[string]int{}, map[string]int{}, 0
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			diff[k] = d
			byWho[strings.Fields(strings.SplitN(k, " | ", 2)[1])[0]] += d
			total += d
		}
	}
	keys := slices.Collect(maps.Keys(diff))
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(cmp.Compare(diff[y], diff[x]), cmp.Compare(x, y)) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "requests a schedule %.2f:", float64(total)/n)
	for _, w := range slices.Sorted(maps.Keys(byWho)) {
		fmt.Fprintf(&sb, " %s %.2f", w, float64(byWho[w])/n)
	}
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n  %6.2f  %s", float64(diff[k])/n, k)
	}
	b.Log(sb.String())
	return float64(total) / n
}

// serverRequests is kube-apiserver's apiserver_request_total by verb and
// resource (subresource after a slash), from its /metrics: every request
// it handled, whoever sent it, its own loopback requests too; and, keyed
// "ms <verb> <resource>", apiserver_request_duration_seconds_sum in
// milliseconds.
func serverRequests(ctx context.Context, env *testenv.Env) (map[string]float64, error) {
	hc, err := rest.HTTPClientFor(env.Config)
	if err != nil {
		return nil, fmt.Errorf("metrics client of %s: %w", env.Config.Host, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(env.Config.Host, "/")+"/metrics", nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s/metrics: %w", env.Config.Host, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s/metrics: %w", env.Config.Host, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("GET %s/metrics: %w", env.Config.Host, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s/metrics: %s", env.Config.Host, resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		metric, rest, ok := strings.Cut(line, "{")
		scale, prefix := 1.0, ""
		switch {
		case !ok:
			continue
		case metric == "apiserver_request_total":
		case metric == "apiserver_request_duration_seconds_sum":
			scale, prefix = 1000, "ms "
		default:
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		l := map[string]string{}
		for _, kv := range strings.Split(labels, ",") {
			k, v, _ := strings.Cut(kv, "=")
			l[k] = strings.Trim(v, `"`)
		}
		key := prefix + strings.ToLower(l["verb"]) + " " + l["resource"]
		if l["subresource"] != "" {
			key += "/" + l["subresource"]
		}
		if l["resource"] == "" {
			key += "(no resource: discovery, /metrics, health checks)"
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, fmt.Errorf("%s/metrics: %q: %w", env.Config.Host, line, err)
		}
		out[key] += v * scale
	}
	return out, nil
}

// logServer logs kube-apiserver's requests between before and after per
// schedule, most first.
func logServer(b testing.TB, before, after map[string]float64, schedules int) {
	b.Helper()
	n := float64(max(schedules, 1))
	diff, total, ms := map[string]float64{}, 0.0, 0.0
	for k, v := range after {
		if d := v - before[k]; d > 0 && !strings.HasPrefix(k, "ms ") {
			diff[k] = d
			total += d
		} else if d > 0 {
			ms += d
		}
	}
	keys := slices.Collect(maps.Keys(diff))
	slices.SortFunc(keys, func(x, y string) int { return cmp.Or(cmp.Compare(diff[y], diff[x]), cmp.Compare(x, y)) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "kube-apiserver: requests a schedule %.2f, handled in %.1f ms (apiserver_request_total, apiserver_request_duration_seconds_sum):", total/n, ms/n)
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n  %6.2f  %-40s %6.2f ms", diff[k]/n, k, (after["ms "+k]-before["ms "+k])/n)
	}
	b.Log(sb.String())
}

// cpu is the CPU time of this process (the explorer, the operator,
// testenv's etcd) and of its kube-apiserver children (their utime and
// stime in /proc, at 100 ticks a second), for CPU a schedule: less
// blurred by other work on the machine than its wall time.
func cpu() (self, servers time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := strconv.Itoa(os.Getpid())
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... utime stime: fields 4, 14 and 15.
		open, closing := strings.IndexByte(string(data), '('), strings.LastIndexByte(string(data), ')')
		if open < 0 || closing < open || string(data[open+1:closing]) != "kube-apiserver" {
			continue
		}
		f := strings.Fields(string(data[closing+1:]))
		if len(f) < 13 || f[1] != parent {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		servers += time.Duration(u+s) * 10 * time.Millisecond
	}
	return self, servers
}
