package explorepins

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// fullAPI is the scratch operator's test that starts testenv's full API
// and explores on it (the page's "Starting the server"): testdata/fullapi,
// copied in after the page's blocks.
const fullAPI = "testdata/fullapi"

// replaceBlocks are docPage's blocks (no language) that run go mod edit
// with a -replace of this checkout ($SP), in the page's order: the route
// from a checkout that is not released yet.
func replaceBlocks(page string) []string {
	var out []string
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
			if b := block.String(); plain && strings.Contains(b, "go mod edit ") && strings.Contains(b, "-replace=") && strings.Contains(b, "$SP") {
				out = append(out, b)
			}
		case in:
			block.WriteString(line)
		}
	}
	return out
}

// TestReplaceBlocksAsWritten: docPage's blocks for running the explorer
// from an unreleased checkout, taken from the page as written and run
// with bash in a scratch operator at the floor line (testdata/operator,
// its explorer test in place, no module proxy: the replace lines point at
// this checkout, $SP), leave a module whose explorer test and a test that
// starts testenv's full API and explores on it (testdata/fullapi) both
// compile (go vet), and whose bin/statuspatch-lint the blocks built. Each
// block runs in page order; the full-API test is copied in before the
// last, the one that adds testenv. Before s98 the page named testenv's
// require and replace in prose only, and go mod tidy failed:
// testenv/@v/list: 403 Forbidden.
func TestReplaceBlocksAsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the linter and a scratch operator")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("no bash: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	table, err := lines.ReadFile(filepath.Join(root, "hack", "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	floor, ok := table.Role("floor")
	if !ok {
		t.Fatal("hack/lines.txt has no floor line")
	}
	blocks := replaceBlocks(read(t, filepath.Join(root, docPage)))
	if len(blocks) == 0 {
		t.Fatalf("%s has no block running go mod edit -replace=...=\"$SP...\"", docPage)
	}
	op := t.TempDir()
	// The user's environment, outside this checkout's workspace (no
	// GOWORK: the linter's go build -C finds $SP's go.work itself).
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "GOWORK=") || strings.HasPrefix(kv, "SP=")
	})
	env = append(env, "SP="+root)
	write(t, filepath.Join(op, "go.mod"), operatorGoMod(floor))
	copyOperator(t, op, true)
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = op, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s (in a scratch operator at %s): %v\n%s", name, strings.Join(args, " "), floor.Name, err, out)
		}
		t.Logf("%s: %s", strings.Join(append([]string{name}, args...), " "), time.Since(start).Round(time.Millisecond))
	}
	for i, b := range blocks {
		if i == len(blocks)-1 {
			copyTree(t, fullAPI, op)
		}
		run("bash", "-euo", "pipefail", "-c", b)
	}
	if _, err := os.Stat(filepath.Join(op, "bin", "statuspatch-lint")); err != nil {
		t.Errorf("the blocks built no bin/statuspatch-lint: %v", err)
	}
	run("go", "vet", "./...")
}

// copyTree copies src's files into dir.
func copyTree(t *testing.T, src, dir string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dir, rel), read(t, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
