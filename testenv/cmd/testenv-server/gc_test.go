package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Once the server is ready, its process collects at serverGCPercent
// under serverMemoryLimit, and its environment (what a kube-apiserver it
// starts inherits) says so, when the environment named neither.
func TestServerCollectsLessOften(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr strings.Builder
	exit := make(chan int, 1)
	go func() {
		exit <- run([]string{"-crds", "../../internal/testapi/crd", "-kubeconfig", filepath.Join(t.TempDir(), "kubeconfig")}, stdinR, stdoutW, &stderr)
		_ = stdoutW.Close()
	}()
	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("first line %q (%v), want ready; stderr:\n%s", line, err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdoutR) }()
	gcPercent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	env := []string{os.Getenv("GOGC"), os.Getenv("GOMEMLIMIT")}
	_ = stdinW.Close()
	if code := <-exit; code != 0 {
		t.Fatalf("exit %d after stdin closed, want 0; stderr:\n%s", code, stderr.String())
	}
	if gcPercent != serverGCPercent || limit != serverMemoryLimit {
		t.Errorf("serving with GC percent %d and memory limit %d, want %d and %d", gcPercent, limit, serverGCPercent, serverMemoryLimit)
	}
	if want := []string{strconv.Itoa(serverGCPercent), strconv.Itoa(serverMemoryLimit)}; !slices.Equal(env, want) {
		t.Errorf("environment for kube-apiserver GOGC, GOMEMLIMIT = %q, want %q", env, want)
	}
}

// A GOGC or GOMEMLIMIT the caller set stands, in the process and in the
// environment.
func TestTuneGCKeepsTheCallersSettings(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, tc := range []struct {
		env  map[string]string
		want []string
	}{
		{map[string]string{}, []string{"GOGC=400", "GOMEMLIMIT=1073741824"}},
		{map[string]string{"GOGC": "150"}, []string{"GOMEMLIMIT=1073741824"}},
		{map[string]string{"GOMEMLIMIT": "2GiB"}, []string{"GOGC=400"}},
		{map[string]string{"GOGC": "off", "GOMEMLIMIT": "2GiB"}, nil},
	} {
		env := map[string]string{}
		for k, v := range tc.env {
			env[k] = v
		}
		debug.SetGCPercent(123)
		debug.SetMemoryLimit(456 << 20)
		got, err := tuneGC(func(k string) string { return env[k] }, func(k, v string) error { env[k] = v; return nil })
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("env %v: set %q, want %q", tc.env, got, tc.want)
		}
		gcPercent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
		if tc.env["GOGC"] != "" && (gcPercent != 123 || env["GOGC"] != tc.env["GOGC"]) {
			t.Errorf("env %v: GC percent %d, GOGC %q: the caller's changed", tc.env, gcPercent, env["GOGC"])
		}
		if tc.env["GOMEMLIMIT"] != "" && (limit != 456<<20 || env["GOMEMLIMIT"] != tc.env["GOMEMLIMIT"]) {
			t.Errorf("env %v: memory limit %d, GOMEMLIMIT %q: the caller's changed", tc.env, limit, env["GOMEMLIMIT"])
		}
	}
}
