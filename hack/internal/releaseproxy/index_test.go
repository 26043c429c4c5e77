package releaseproxy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The go command on this machine indexes a module-cache folder once, by
// its path: a file added to a rebuilt version at the same path is left out
// of the package until Drop drops the index with the folder. The test
// fails if IndexEntry names another file than the go command writes (the
// new file stays unseen after Drop), and says so if the go command stops
// reusing its index (then Drop's index work is moot).
func TestDropIndexDropsWhatTheGoCommandReads(t *testing.T) {
	tmp := t.TempDir()
	modcache, gocache := filepath.Join(tmp, "mod"), filepath.Join(tmp, "cache")
	dir := filepath.Join(modcache, "github.com", "statuspatch", "statuspatch@v0.1.0")
	old := time.Now().Add(-time.Minute)
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOMODCACHE="+modcache, "GOCACHE="+gocache, "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-modcacherw", "GODEBUG=")
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write("go.mod", "module github.com/statuspatch/statuspatch\n\ngo 1.24\n")
	write("a.go", "package p\n")
	if got := goCmd("list", "-f", "{{.GoFiles}}", "."); got != "[a.go]" {
		t.Fatalf("go list = %s, want [a.go]", got)
	}
	c := Caches{ModCache: modcache, GoCache: gocache, GoVersions: []string{goCmd("env", "GOVERSION")}, Served: []string{"github.com/statuspatch/statuspatch@v0.1.0"}}
	if _, err := os.Stat(IndexEntry(gocache, c.GoVersions[0], dir)); err != nil {
		t.Fatalf("the go command wrote no module index where IndexEntry says: %v", err)
	}
	// The same version rebuilt with a file more: the index is stale.
	write("b.go", "package p\n")
	if got := goCmd("list", "-f", "{{.GoFiles}}", "."); got != "[a.go]" {
		t.Logf("go list = %s: the go command no longer reuses a stale module index", got)
	}
	if err := Drop(c); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("Drop left the module folder")
	}
	write("go.mod", "module github.com/statuspatch/statuspatch\n\ngo 1.24\n")
	write("a.go", "package p\n")
	write("b.go", "package p\n")
	if got := goCmd("list", "-f", "{{.GoFiles}}", "."); got != "[a.go b.go]" {
		t.Errorf("after Drop and a rebuild with b.go, go list = %s, want [a.go b.go]: the module index was not dropped", got)
	}
}
