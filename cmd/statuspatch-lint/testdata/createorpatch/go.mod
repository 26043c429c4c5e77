// A controller whose controllerutil.CreateOrPatch mutate numbers the
// Rollout in its status (project E's Register, issue 80), over the
// examples' Rollout kind and the patchers generated for it.
// TestFixCreateOrPatchRuns copies it, runs its test on the real API
// server before and after statuspatch-lint -fix, in a workspace of this
// checkout.
module github.com/statuspatch/statuspatch/examples/lintfixcreateorpatch

go 1.26.0

require (
	github.com/statuspatch/statuspatch v0.1.0
	github.com/statuspatch/statuspatch/examples v0.1.0
	github.com/statuspatch/statuspatch/testenv v0.1.0
	k8s.io/apimachinery v0.37.2
	sigs.k8s.io/controller-runtime v0.25.2
)
