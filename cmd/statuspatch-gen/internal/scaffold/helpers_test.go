package scaffold

import (
	"flag"
	"path/filepath"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/internal/treetest"
)

var update = flag.Bool("update", false, "rewrite the init goldens in testdata/ instead of comparing")

var (
	copyTree  = treetest.CopyTree
	writeFile = treetest.WriteFile
	repoRoot  = treetest.RepoRoot
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
