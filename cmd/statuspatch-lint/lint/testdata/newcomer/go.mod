// A new user's operator, in module mode: the patchers are generated into
// internal/patchers, and the controller does not import them yet.
module example.com/newcomer

go 1.24

require (
	github.com/statuspatch/statuspatch v0.0.0
	k8s.io/apimachinery v0.0.0
	sigs.k8s.io/controller-runtime v0.0.0
)

replace (
	github.com/statuspatch/statuspatch => ../src/github.com/statuspatch/statuspatch
	k8s.io/apimachinery => ../src/k8s.io/apimachinery
	sigs.k8s.io/controller-runtime => ../src/sigs.k8s.io/controller-runtime
)
