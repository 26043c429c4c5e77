//go:build linux

package explore_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// leftBehindToken marks, in its environment, every process a child run of
// this test binary starts (envtest's kube-apiserver inherits it).
const leftBehindToken = "STATUSPATCH_EXPLORE_LEFT_BEHIND"

// A go test of the package stops the servers its tests share: the
// kube-apiserver of the tests that need the full API (envtest starts it in
// a process group of its own, with no parent-death signal; unstopped, it
// runs until a log line meets the closed pipe) is not left running after
// the test binary exits, and neither its directories nor the embedded
// server's (etcd's data, the kubeconfig) are left in TMPDIR.
func TestGoTestLeavesNoServerBehind(t *testing.T) {
	if os.Getenv(leftBehindToken) != "" {
		t.Skip("the child run")
	}
	// One test on the embedded server, one on the full API (skipped where
	// no kube-apiserver is built).
	want := []string{"TestStuckFinalizerSilentOnDeletionProtection"}
	if err := fullAPIAvailable(); err == nil {
		want = append(want, "TestResetRemovesNamespaceWithFinalizer")
	} else if errors.Is(err, errUnavailable) {
		t.Logf("the embedded server only; full API: %v", err)
	} else {
		t.Fatal(err)
	}
	token := leftBehindToken + "=" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^(TestStuckFinalizerSilentOnDeletionProtection|TestResetRemovesNamespaceWithFinalizer)$", "-test.count=1", "-test.v")
	tmp := t.TempDir()
	bin, err := serverBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), token, "TMPDIR="+tmp, envServerBinary+"="+bin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child run: %v\n%s", err, out)
	}
	for _, name := range want {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Fatalf("the child run did not pass %s:\n%s", name, out)
		}
	}
	for _, pid := range withEnv(t, token) {
		cmdline, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		t.Errorf("the test binary exited and left pid %d running: %s", pid, strings.ReplaceAll(string(cmdline), "\x00", " "))
		_ = syscall.Kill(pid, syscall.SIGKILL) // the child run's, so ours
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("the test binary exited and left %s in its TMPDIR", e.Name())
	}
}

// withEnv lists the processes whose environment holds entry.
func withEnv(t *testing.T, entry string) []int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil {
			continue // gone, or not ours to read
		}
		for _, e := range strings.Split(string(env), "\x00") {
			if e == entry {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
