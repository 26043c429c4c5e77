module example.com/dep

go 1.24.0

require sigs.k8s.io/controller-runtime v0.22.0

replace sigs.k8s.io/controller-runtime => ../controller-runtime-fork
