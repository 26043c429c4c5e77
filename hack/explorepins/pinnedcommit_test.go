package explorepins

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pinnedBlock is docPage's block (no language) that takes an operator the
// module proxy refuses from a clone at a pinned commit: git archive into
// a folder, and a replace line to it.
func pinnedBlock(page string) (string, bool) {
	var block strings.Builder
	in, plain := false, false
	for line := range strings.Lines(page) {
		fence, isFence := strings.CutPrefix(strings.TrimRight(line, "\n"), "```")
		switch {
		case isFence && !in:
			in, plain = true, fence == ""
			block.Reset()
		case isFence:
			in = false
			if b := block.String(); plain && strings.Contains(b, "git -C \"$OP_GIT\" archive") && strings.Contains(b, "-replace=") {
				return b, true
			}
		case in:
			block.WriteString(line)
		}
	}
	return "", false
}

// TestPinnedCheckoutBlockAsWritten: docPage's block for an operator the
// module proxy refuses, taken from the page as written and run with bash
// in a module that imports that operator, with the module proxy off
// (GOPROXY=off: nothing may come from it), leaves a module that builds on
// the operator's source at the pinned commit: the clone's newer commit
// and its working tree's changes are not in the folder, nor its .git.
// The operator is a scratch module of one package, in a git repository
// of two commits; the block's $OP_GIT, $OP_COMMIT and $OP_MOD name the
// repository, its first commit and the module path.
func TestPinnedCheckoutBlockAsWritten(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("no bash: %v", err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("no git: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	block, ok := pinnedBlock(read(t, filepath.Join(root, docPage)))
	if !ok {
		t.Fatalf("%s has no block running git -C \"$OP_GIT\" archive and go mod edit -replace=", docPage)
	}
	const mod = "example.com/pinned/operator"
	repo, user := t.TempDir(), t.TempDir()
	// The block runs as a user's shell would: no workspace, no proxy (the
	// commit's tree is all the build may read), and none of the caller's
	// GOFLAGS (a -mod flag would change what go mod tidy may write).
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOWORK=") || strings.HasPrefix(kv, "GOPROXY=") || strings.HasPrefix(kv, "GOFLAGS=")
	})
	env = append(env, "GOWORK=off", "GOPROXY=off",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	run := func(dir, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	name := func(s string) string {
		return "package operator\n\n// Name is the operator's.\nfunc Name() string { return \"" + s + "\" }\n"
	}
	write(t, filepath.Join(repo, "go.mod"), "module "+mod+"\n\ngo 1.22\n")
	write(t, filepath.Join(repo, "operator.go"), name("pinned"))
	run(repo, "git", "init", "-q")
	run(repo, "git", "add", ".")
	run(repo, "git", "commit", "-q", "-m", "pinned")
	pinned := run(repo, "git", "rev-parse", "HEAD")
	write(t, filepath.Join(repo, "operator.go"), name("newer"))
	run(repo, "git", "commit", "-q", "-am", "newer")
	write(t, filepath.Join(repo, "operator.go"), name("uncommitted"))

	write(t, filepath.Join(user, "go.mod"), "module example.com/user\n\ngo 1.22\n")
	write(t, filepath.Join(user, "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\n\t\""+mod+"\"\n)\n\nfunc main() { fmt.Print(operator.Name()) }\n")
	env = append(env, "OP_GIT="+repo, "OP_COMMIT="+pinned, "OP_MOD="+mod)
	run(user, "bash", "-euo", "pipefail", "-c", block)
	if got := run(user, "go", "run", "."); got != "pinned" {
		t.Errorf("the module built on the operator's %q, want the pinned commit's", got)
	}
	gomod := read(t, filepath.Join(user, "go.mod"))
	if !strings.Contains(gomod, "replace "+mod+" => ./third_party/operator") {
		t.Errorf("go.mod has no replace of %s to the folder:\n%s", mod, gomod)
	}
	if _, err := os.Stat(filepath.Join(user, "third_party", "operator", ".git")); !os.IsNotExist(err) {
		t.Errorf("the folder holds the clone's .git (%v), want the commit's tree only", err)
	}
}
