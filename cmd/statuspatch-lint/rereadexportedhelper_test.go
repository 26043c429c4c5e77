package main

import (
	"strings"
	"testing"
)

// rereadHelperPkg is the tutorial's re-Get, then the exported writing
// helper status.MarkFailed, with no write of the caller after the re-Get.
const rereadHelperPkg = `package ctrld

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Reconciler struct {
	Client client.Client
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	d.Status.ObservedGeneration = d.Generation
	if err := r.Client.Status().Update(ctx, d); err != nil {
		return err
	}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	return status.MarkFailed(ctx, r.Client, d, "no capacity")
}
`

// An exported helper of another package after the re-Get, no write of
// its caller after it (issue 80): the helper takes the patcher of the
// caller's write before the re-Get. At 867e71de the re-Get stayed a Get
// (planRereads: no write after it), and the helper would have been given
// that patcher, its base older than the re-read; the re-Get is now its
// Fetch, assigned to the patcher the helper is given, and the module
// builds. The migrated caller is
// testdata/exportedhelper/rereadhelper/ctrld_ctrld.go.golden.
func TestFixRereadBeforeExportedHelper(t *testing.T) {
	bin := buildLint(t)
	mod, errOut := fixExported(t, bin, map[string]string{"ctrld/ctrld.go": rereadHelperPkg},
		"status/status.go:16: fixed: move the status write onto DeploymentStatusPatcher (MarkFailed takes the patcher",
		"ctrld/ctrld.go:21: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)")
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, "handwritten status write") && (strings.Contains(l, "/ctrld/") || strings.Contains(l, "/status/")) {
			t.Errorf("-fix kept a write: %s", l)
		}
	}
	matchGoldens(t, mod, "rereadhelper", "", "ctrld/ctrld.go")
	vetFixed(t, mod)
}
