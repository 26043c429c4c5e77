package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// An exported helper that reads the object fresh, hands it to a function
// it is given and patches its status with the lock
// (openstack-hypervisor-operator's PatchHypervisorStatusWithRetry), and
// callers in two packages passing function literals.
const (
	callbackStatusPkg = `package status

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

// PatchWithRetry reads the Deployment, lets update change it and patches
// its status.
func PatchWithRetry(ctx context.Context, c client.Client, name string, update func(*appsv1.Deployment)) error {
	d := &appsv1.Deployment{}
	if err := c.Get(ctx, client.ObjectKey{Name: name}, d); err != nil {
		return err
	}
	base := d.DeepCopy()
	update(d)
	return c.Status().Patch(ctx, d, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}
`
	callbackCallerPkg = `package NAME

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Mark(ctx context.Context, c client.Client, name string) error {
	return status.PatchWithRetry(ctx, c, name, func(d *appsv1.Deployment) { BODY })
}
`
	callbackNamedPkg = `package ctrlb

import (
	"context"

	"example.com/realmod/status"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func mark(d *appsv1.Deployment) { d.Status.Replicas = 2 }

func Mark(ctx context.Context, c client.Client, name string) error {
	return status.PatchWithRetry(ctx, c, name, mark)
}
`
)

func callbackCaller(name, body string) string {
	return strings.NewReplacer("NAME", name, "BODY", body).Replace(callbackCallerPkg)
}

// -fix moves the helper's write onto the patcher when every function its
// callers in the module pass changes only the status (a summary over the
// module's call sites): the callers stay as they are. A literal that
// changes the spec, or a function passed by name, keeps it, and the
// finding names that call.
func TestFixFollowsTheCallbackThroughItsCallers(t *testing.T) {
	bin := buildLint(t)
	reassigning := strings.Replace(callbackStatusPkg, "\tbase := d.DeepCopy()\n", "\tif update == nil {\n\t\tupdate = func(*appsv1.Deployment) {}\n\t}\n\tbase := d.DeepCopy()\n", 1)
	for _, c := range []struct {
		name, status, ctrlb, want string
		moved                     bool
	}{
		{"status only", "", callbackCaller("ctrlb", "d.Status.ObservedGeneration = 1"), "status/status.go:22: fixed: move the status write onto DeploymentStatusPatcher (NewDeploymentStatusPatcher, then Flush)", true},
		// The helper may call another function than its callers'.
		{"reassigned", reassigning, callbackCaller("ctrlb", "d.Status.ObservedGeneration = 1"), "(not moved to the patcher: d is passed to the function value update at line 24, which is not followed: it may change the object's identity (its name, namespace, uid or resourceVersion; ObjectMeta or TypeMeta whole), which the status write follows and the patcher made at the read does not)", false},
		{"spec", "", callbackCaller("ctrlb", "d.Spec.Replicas = nil"), "(not moved to the patcher: d is passed to update, a parameter of PatchWithRetry, exported, moves with all its callers or none, and in package example.com/realmod/ctrlb, the function literal passed to PatchWithRetry at ctrlb.go:12 may change more than the status: d.Spec is changed at ctrlb.go:12", false},
		{"named", "", callbackNamedPkg, "in package example.com/realmod/ctrlb, the function passed to PatchWithRetry at ctrlb.go:14, mark, is not a function literal", false},
	} {
		status := c.status
		if status == "" {
			status = callbackStatusPkg
		}
		mod := exportedHelperModule(t, map[string]string{
			"status/status.go": status,
			"ctrla/ctrla.go":   callbackCaller("ctrla", "d.Status.Replicas = 1"),
			"ctrlb/ctrlb.go":   c.ctrlb,
		})
		callers := readIn(t, mod, "ctrla/ctrla.go") + readIn(t, mod, "ctrlb/ctrlb.go")
		_, errOut, _, _ := lintWith(t, mod, bin, "export", "-fix", "./...")
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%s: -fix: output lacks %q:\n%s", c.name, c.want, errOut)
		}
		helper := readIn(t, mod, "status/status.go")
		if moved := strings.Contains(helper, "dPatcher := kindpatch.NewDeploymentStatusPatcher(c, d)") && strings.Contains(helper, "return dPatcher.Flush(ctx)"); moved != c.moved {
			t.Errorf("%s: the helper after -fix (moved %v, want %v):\n%s", c.name, moved, c.moved, helper)
		}
		if after := readIn(t, mod, "ctrla/ctrla.go") + readIn(t, mod, "ctrlb/ctrlb.go"); after != callers {
			t.Errorf("%s: -fix changed the callers:\n%s", c.name, after)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build ./... after -fix: %v\n%s", c.name, err, out)
		}
	}
}
