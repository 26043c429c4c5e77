// A small operator controller with handwritten status writes, over the
// examples' Rollout kind and the patchers generated for it
// (examples/internal/patchers, which this path may import). TestFixMigratesAndRuns
// copies it, runs statuspatch-lint -fix on it in a workspace of this
// checkout, then runs its test on the real API server.
module github.com/statuspatch/statuspatch/examples/lintfixe2e

go 1.26.0

require (
	github.com/statuspatch/statuspatch v0.1.0
	github.com/statuspatch/statuspatch/examples v0.1.0
	github.com/statuspatch/statuspatch/testenv v0.1.0
	k8s.io/apimachinery v0.37.2
	sigs.k8s.io/controller-runtime v0.25.2
)
