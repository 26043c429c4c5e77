package scaffold

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/internal/treetest"
)

var update = flag.Bool("update", false, "rewrite the init goldens in testdata/ instead of comparing")

var (
	copyTree  = treetest.CopyTree
	writeFile = treetest.WriteFile
	repoRoot  = sourceRoot
)

// goldenModule is the generator's golden module (its go.mod, go.sum and API
// packages), as an absolute path.
var goldenModule = func() string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "generator", "testdata"))
	if err != nil {
		panic(err)
	}
	return dir
}()

// sourceRoot is the repository's root (treetest.RepoRoot). The tests read
// and build what is there (hack/golangci-plugin's files, the runtime in a
// starter test's module), outside this module, where go test's result
// cache does not look: they read STATUSPATCH_SOURCE_DIGEST, make test's
// digest of the modules they build (the Makefile), so a change there runs
// them again.
func sourceRoot(t testing.TB) string {
	t.Helper()
	_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST")
	return treetest.RepoRoot(t)
}

// readDoc reads docs/NAME of this repository. make test exports
// STATUSPATCH_DOCS_DIGEST, a digest of docs/ (the Makefile): reading it
// makes go test's result cache run the test again when a page changes, as
// the cache does not check files outside the module.
func readDoc(t *testing.T, name string) ([]byte, error) {
	t.Helper()
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST")
	return os.ReadFile(filepath.Join(repoRoot(t), "docs", name))
}
