package modproxy

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
)

// run runs name with args in dir, env added to the test's, and returns its
// output; a failure ends the test with the output.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// lastLine is out's last line, after the go command's "downloading" notes.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The docs' "from a checkout" route, followed at two commits with one
// module cache and one proxy folder, as a user does it: each commit gets a
// version of its own, the project moves from the first to the second with
// go get and builds the second tree, and rebuilding a commit's proxy after
// the module cache was emptied gives the go.sum's checksums again. Build at
// one release version gave both trees that version: the cache kept the
// first (a stale tree) and a rebuilt cache failed the go.sum ("checksum
// mismatch").
func TestBuildCommitOneVersionPerCommit(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	repo, out, consumer := t.TempDir(), t.TempDir(), t.TempDir()
	gitEnv := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	commit := func(date string) {
		env := append(gitEnv, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		run(t, repo, env, "git", "add", "-A")
		run(t, repo, env, "git", "commit", "-q", "-m", date)
	}
	run(t, repo, gitEnv, "git", "init", "-q")
	write(t, repo, map[string]string{
		"go.mod":     "module example.com/r\n\ngo 1.24\n",
		"r.go":       "package r\n\nconst Tree = \"one\"\n",
		"n/go.mod":   "module example.com/r/n\n\ngo 1.24\n\nrequire example.com/r v0.1.0\n",
		"n/n.go":     "package n\n\nimport \"example.com/r\"\n\nconst Tree = r.Tree\n",
		".gitignore": "bin/\n",
	})
	commit("2026-11-30T10:00:00Z")
	dirs := []string{".", "n"}
	v1, err := buildCommit(repo, out, dirs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if want := "v0.0.0-20261130100000-"; !strings.HasPrefix(v1, want) || !module.IsPseudoVersion(v1) {
		t.Fatalf("version %s, want a pseudo-version %s<hash>", v1, want)
	}
	write(t, repo, map[string]string{"r.go": "package r\n\nconst Tree = \"two\"\n"})
	commit("2026-11-30T11:00:00Z")
	// an uncommitted change is not in the commit's version
	write(t, repo, map[string]string{"r.go": "package r\n\nconst Tree = \"dirty\"\n"})
	v2, err := buildCommit(repo, out, dirs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if v2 == v1 || !strings.HasPrefix(v2, "v0.0.0-20261130110000-") {
		t.Fatalf("second commit's version %s, first's %s: want one of its own", v2, v1)
	}
	mod, err := os.ReadFile(filepath.Join(out, "example.com", "r", "n", "@v", v2+".mod"))
	if err != nil || !strings.Contains(string(mod), "require example.com/r "+v2+"\n") {
		t.Errorf("n's .mod at %s = %q, %v: want it to require example.com/r %s", v2, mod, err, v2)
	}
	list, err := os.ReadFile(filepath.Join(out, "example.com", "r", "@v", "list"))
	if err != nil || string(list) != v1+"\n"+v2+"\n" {
		t.Errorf("list = %q, %v: want both versions", list, err)
	}

	modcache := filepath.Join(t.TempDir(), "mod")
	goEnv := []string{"GOMODCACHE=" + modcache, "GOPROXY=file://" + out, "GONOSUMDB=example.com", "GOFLAGS=-mod=mod -modcacherw",
		"GOWORK=off", "GOTOOLCHAIN=local", "GOPATH=" + t.TempDir()}
	write(t, consumer, map[string]string{
		"go.mod":  "module example.com/c\n\ngo 1.24\n",
		"main.go": "package main\n\nimport \"example.com/r/n\"\n\nfunc main() { println(n.Tree) }\n",
	})
	for _, c := range []struct{ version, tree string }{{v1, "one"}, {v2, "two"}} {
		run(t, consumer, goEnv, "go", "get", "example.com/r/n@"+c.version)
		if got := lastLine(run(t, consumer, goEnv, "go", "run", ".")); got != c.tree {
			t.Errorf("at %s the project builds the tree %q, want %q", c.version, got, c.tree)
		}
	}
	// the module cache emptied and the proxy rebuilt from the same commit:
	// the go.sum's checksums hold
	run(t, consumer, goEnv, "go", "clean", "-modcache")
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	if again, err := buildCommit(repo, out, dirs, io.Discard); err != nil || again != v2 {
		t.Fatalf("rebuilt: %s, %v; want %s", again, err, v2)
	}
	if got := lastLine(run(t, consumer, goEnv, "go", "run", ".")); got != "two" {
		t.Errorf("after a rebuilt proxy the project builds %q, want %q", got, "two")
	}
	run(t, consumer, goEnv, "go", "mod", "verify")
}

// A checkout whose modules require a sibling at another version than the
// others is refused as Build refuses it, naming the line.
func TestBuildCommitRefusesMixedSiblings(t *testing.T) {
	repo := t.TempDir()
	gitEnv := []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}
	run(t, repo, gitEnv, "git", "init", "-q")
	write(t, repo, map[string]string{
		"go.mod":   "module example.com/r\n\ngo 1.24\n",
		"n/go.mod": "module example.com/r/n\n\ngo 1.24\n\nrequire example.com/r v0.1.0\n",
		"m/go.mod": "module example.com/r/m\n\ngo 1.24\n\nrequire example.com/r v0.2.0\n",
	})
	run(t, repo, gitEnv, "git", "add", "-A")
	run(t, repo, gitEnv, "git", "commit", "-q", "-m", "x")
	_, err := buildCommit(repo, t.TempDir(), []string{".", "n", "m"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "m/go.mod:5: requires example.com/r v0.2.0, but the modules are being published at v0.1.0") {
		t.Errorf("err = %v, want m/go.mod:5's requirement named", err)
	}
}
