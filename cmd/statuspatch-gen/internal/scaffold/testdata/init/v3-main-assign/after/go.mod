module tutorial.kubebuilder.io/project

go 1.24.0

require sigs.k8s.io/controller-runtime v0.22.0
