module sigs.k8s.io/controller-runtime

go 1.24

require k8s.io/apimachinery v0.0.0

replace k8s.io/apimachinery => ../../k8s.io/apimachinery
