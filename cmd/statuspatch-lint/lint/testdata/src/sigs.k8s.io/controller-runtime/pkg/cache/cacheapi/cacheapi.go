// Package cacheapi is a stub of sigs.k8s.io/controller-runtime/pkg/cache/cacheapi
// (v0.25.2), where client.Object is declared: client.Object is an alias of
// cacheapi.Object, a package controllers never import.
package cacheapi

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type Object interface {
	metav1.Object
	runtime.Object
}
