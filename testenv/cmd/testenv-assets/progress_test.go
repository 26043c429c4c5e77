package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the progress reports' goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// While a step runs, it reports packages compiled out of go list -deps's
// count, modules downloaded and the time spent.
func TestProgressReports(t *testing.T) {
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}}
	slow := func(ctx context.Context, dir string, line func(string), args ...string) ([]byte, error) {
		out, err := f.run(ctx, dir, line, args...)
		if args[0] == "build" {
			line("go: downloading example.com/late v1.0.0")
			time.Sleep(100 * time.Millisecond)
		}
		return out, err
	}
	var log syncBuffer
	b := &builder{root: t.TempDir(), want: wanted(true), goos: runtime.GOOS, goarch: runtime.GOARCH, run: slow,
		log: &log, tick: 10 * time.Millisecond, now: time.Now, staleBuildAge: time.Hour}
	if _, err := b.build(t.Context(), kubeVersion{Minor: 35, Patch: 4}); err != nil {
		t.Fatal(err)
	}
	got := log.String()
	t.Log(got)
	for _, want := range []string{
		"[3/5] kube-apiserver v1.35.4: compiling: ",
		"[5/5] etcd v3.6.5: compiling: ",
		", 2 of at most 3 packages compiled (cached ones are not counted), 1 module downloaded (",
		" elapsed in all)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("progress lacks %q", want)
		}
	}
}
