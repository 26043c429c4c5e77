package main

import (
	"strings"
	"testing"
)

// testedPkg is kueue's clustersReconciler.updateStatus reduced: an
// unexported write-only helper, called after the reconcile's Get (three
// calls in kueue, one here) and by the package's own test with an object
// the test built (multikueuecluster_test.go:1011) or read.
const testedPkg = `package ctrlt

import (
	"context"

	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

type Reconciler struct {
	local client.Client
}

func (r *Reconciler) Reconcile(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.local.Get(ctx, key, d); err != nil {
		return err
	}
	return r.updateStatus(ctx, d, "Active")
}

func (r *Reconciler) updateStatus(ctx context.Context, d *appsv1.Deployment, reason string) error {
	if d.Status.Replicas == int32(len(reason)) {
		return nil
	}
	d.Status.Replicas = int32(len(reason))
	return r.local.Status().Update(ctx, d)
}
`

// testedTest calls it as kueue's test does: on an object it built, then
// on one it read. BODY is where each case puts more.
const testedTest = `package ctrlt

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

func TestUpdateStatus(t *testing.T) {
	ctx := context.Background()
	built := &appsv1.Deployment{}
	r := &Reconciler{}
	if err := r.updateStatus(ctx, built, "Gone"); err != nil {
		t.Fatal(err)
	}
	var got appsv1.Deployment
	if err := r.updateStatus(ctx, &got, "Active"); err != nil {
		t.Fatal(err)
	}
	BODY
}
`

// -fix moves a helper the package's own test calls (kueue's
// multikueuecluster.go:1178 and clusterqueue_controller.go:561, kept at
// s96a "a test file of the package uses updateStatus: its calls there
// cannot be moved"): the helper takes the patcher, the reconcile makes it
// after its Get, and each test call passes one made there over the object
// it passed, with the client the helper wrote through (the test's
// reconciler's field r.local), the file importing the patchers: its base
// is the object as the test passes it. The module's tests build (go vet). The migrated files are
// testdata/exportedhelper/tests/*.golden.
func TestFixMovesHelperWithItsTestCalls(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"ctrlt/ctrlt.go": testedPkg, "ctrlt/ctrlt_test.go": strings.Replace(testedTest, "\tBODY\n", "", 1)},
		"ctrlt/ctrlt.go:30: fixed: move the status write onto DeploymentStatusPatcher (updateStatus takes the patcher its callers make with NewDeploymentStatusPatcher, its decision in Retry; its calls in the package's tests pass one made there over their object)")
	matchGoldens(t, mod, "tests", "", "ctrlt/ctrlt.go", "ctrlt/ctrlt_test.go")
	vetFixed(t, mod)
}

// A test call -fix cannot rewrite keeps the helper and its callers as
// they are, the finding naming the call's line and the fact; so does a
// method of the same name elsewhere in the package, which the test
// files' calls (read without types) would not tell apart, and a call on
// an object the test changed after making or reading it: the patcher
// made over it would take the change as its base and not send it.
func TestFixKeepsHelperWhoseTestCallStays(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct {
		name, body, pkg, why string
	}{
		{"built receiver", "_ = (&Reconciler{}).updateStatus(ctx, built, \"x\")", "",
			"the test file ctrlt_test.go:21 calls updateStatus with (&Reconciler{}): its patcher's client, (&Reconciler{}).local, would be evaluated twice"},
		{"method value", "f := r.updateStatus\n\t_ = f", "",
			"the test file ctrlt_test.go:21 names updateStatus other than in a call of it"},
		{"nil object", "_ = r.updateStatus(ctx, nil, \"x\")", "",
			"the test file ctrlt_test.go:21 calls updateStatus with a nil object: no patcher is made over nothing"},
		{"test's own method", "}\n\ntype fake struct{}\n\nfunc (fake) updateStatus() {", "",
			"the test file ctrlt_test.go:25 names updateStatus other than in a call of it"},
		{"status set before the call", "built.Status.ReadyReplicas = 3\n\t_ = r.updateStatus(ctx, built, \"x\")", "",
			"the test file ctrlt_test.go:22 calls updateStatus with built, which it may change before the call (it sets built.Status.ReadyReplicas at line 21): a patcher made over it would take the change as its base and not send it, where the Update sent the whole status"},
		{"object passed on before the call", "got.Status.Replicas++\n\tfunc(d *appsv1.Deployment) {}(&got)\n\t_ = r.updateStatus(ctx, &got, \"x\")", "",
			"the test file ctrlt_test.go:23 calls updateStatus with &got, which it may change before the call (it sets got.Status.Replicas at line 21): a patcher made over it would take the change as its base and not send it, where the Update sent the whole status"},
		{"object passed to a call", "func(d *appsv1.Deployment) { d.Status.Replicas = 2 }(built)\n\t_ = r.updateStatus(ctx, built, \"x\")", "",
			"the test file ctrlt_test.go:22 calls updateStatus with built, which it may change before the call (it passes built to a call at line 21, which sets d.Status.Replicas at ctrlt_test.go:21): a patcher made over it would take the change as its base and not send it, where the Update sent the whole status"},
		{"object passed to a function value", "f := func(d *appsv1.Deployment) {}\n\tf(built)\n\t_ = r.updateStatus(ctx, built, \"x\")", "",
			"the test file ctrlt_test.go:23 calls updateStatus with built, which it may change before the call (it passes built to f at line 22, a function value, whose body -fix cannot follow: it may change it): a patcher made over it would take the change as its base and not send it, where the Update sent the whole status"},
		{"package's other method", "", testedPkg + "\ntype other struct{}\n\nfunc (other) updateStatus() {}\n",
			"a test file of the package uses updateStatus: its calls there cannot be moved (other has a method or field updateStatus too: a test's call of updateStatus is not told apart without the test files' types)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkg := testedPkg
			if c.pkg != "" {
				pkg = c.pkg
			}
			test := strings.Replace(testedTest, "BODY", c.body, 1)
			mod := exportedHelperModule(t, map[string]string{"ctrlt/ctrlt.go": pkg, "ctrlt/ctrlt_test.go": test})
			_, out, _, _ := lintWith(t, mod, bin, "export", "-fix", "./...")
			want := "ctrlt/ctrlt.go:30:9: handwritten status write to Deployment: use DeploymentStatusPatcher (example.com/realmod/kindpatch) (not moved to the patcher: d is a parameter of updateStatus: " + c.why + ")"
			if !strings.Contains(out, want) {
				t.Errorf("-fix: output lacks %q:\n%s", want, out)
			}
			if got := readIn(t, mod, "ctrlt/ctrlt.go") + readIn(t, mod, "ctrlt/ctrlt_test.go"); got != pkg+test {
				t.Errorf("-fix changed the helper's package:\n%s", got)
			}
		})
	}
}
