package patcher

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The oldest line statuspatch supports is controller-runtime v0.22 with
// k8s.io v0.34 and Go 1.24 (docs/compatibility.md). go.mod requires it, but
// a module that pins an older controller-runtime or apimachinery with a
// replace directive would otherwise meet a compile error deep in this
// package. This declaration fails first, and both its file name and its
// type name say what is needed: client.Client gained Apply, and
// apimachinery runtime.ApplyConfiguration, in those versions.
type requiresControllerRuntimeV0_22AndK8sV0_34OrNewer interface {
	Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error
}

var _ requiresControllerRuntimeV0_22AndK8sV0_34OrNewer = client.Client(nil)
