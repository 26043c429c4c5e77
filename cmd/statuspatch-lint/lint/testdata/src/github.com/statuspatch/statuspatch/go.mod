module github.com/statuspatch/statuspatch

go 1.24

require (
	k8s.io/apimachinery v0.0.0
	sigs.k8s.io/controller-runtime v0.0.0
)

replace (
	k8s.io/apimachinery => ../../k8s.io/apimachinery
	sigs.k8s.io/controller-runtime => ../../sigs.k8s.io/controller-runtime
)
