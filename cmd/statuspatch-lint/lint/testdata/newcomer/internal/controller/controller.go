// Package controller is the scaffold's controller before it imports the
// generated patchers: the message names the package they are in.
package controller

import (
	"context"

	apiv1 "example.com/newcomer/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func reconcile(ctx context.Context, c client.Client, w *apiv1.Website, g *apiv1.Gadget) error {
	_ = c.Status().Update(ctx, w)    // want `^handwritten status write to Website: use WebsiteStatusPatcher \(example.com/newcomer/internal/patchers\) \(not moved to the patcher: w is a parameter of reconcile: it has no caller in the package \(the patcher is made where its callers read it; move the write there\)\)$`
	return c.Status().Update(ctx, g) // want `^handwritten status write to Gadget: generate a GadgetStatusPatcher with statuspatch-gen$`
}
