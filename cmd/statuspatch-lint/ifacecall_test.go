package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An interface of the module whose method names a type of it, called in
// ctrl on the object read by Get through an exported field (set by
// callers anywhere), and its implementations in other packages.
const (
	schedPkg = `package sched

import appsv1 "k8s.io/api/apps/v1"

type Options struct{ Force bool }

type Scheduler interface {
	ShouldSchedule(*appsv1.Deployment, Options) bool
}
`
	schedCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/kindpatch"
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

type Reconciler struct {
	Client client.Client
	Sched  sched.Scheduler
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	if r.Sched.ShouldSchedule(d, sched.Options{}) {
		d.Status.Replicas = 1
	}
	return r.Client.Status().Update(ctx, d)
}
`
	// schedHelperCtrl writes in a helper of the package, after the call.
	schedHelperCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/kindpatch"
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

type Reconciler struct {
	Client client.Client
	Sched  sched.Scheduler
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	if r.Sched.ShouldSchedule(d, sched.Options{}) {
		d.Status.Replicas = 1
	}
	return r.updateStatus(ctx, d)
}

func (r *Reconciler) updateStatus(ctx context.Context, d *appsv1.Deployment) error {
	return r.Client.Status().Update(ctx, d)
}
`
	schedReader = `package reader

import (
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
)

type Reader struct{}

func (Reader) ShouldSchedule(d *appsv1.Deployment, o sched.Options) bool {
	return o.Force || d.Spec.Replicas != nil
}
`
	schedChanger = `package changer

import (
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
)

type Changer struct{}

func (*Changer) ShouldSchedule(d *appsv1.Deployment, o sched.Options) bool {
	if o.Force {
		d.Spec.Replicas = nil
	}
	return true
}
`
	// schedRenamer changes the object's identity: a status subresource
	// write would go to the object it then names.
	schedRenamer = `package renamer

import (
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
)

type Renamer struct{}

func (*Renamer) ShouldSchedule(d *appsv1.Deployment, o sched.Options) bool {
	if o.Force {
		d.Name += "-forced"
	}
	return true
}
`
	schedTest = `package reader

import (
	"example.com/realmod/internal/sched"
	appsv1 "k8s.io/api/apps/v1"
)

type fake struct{}

func (fake) ShouldSchedule(d *appsv1.Deployment, o sched.Options) bool { return true }
`
)

// open is src importing sched from outside internal/: a library's
// exported interface, which modules importing it may implement.
func open(src string) string {
	return strings.ReplaceAll(src, "example.com/realmod/internal/sched", "example.com/realmod/sched")
}

// -fix under the whole-module driver moves a write past an interface
// call when every implementation in the module only reads the object
// there, or (a Status().Update, by default -nonstatus-unsent) changes
// only what the write leaves unsent, its spec (ParamsFact.Unsent: the
// patcher made with patcher.WithNonStatusChangesUnsent()); and keeps
// it, naming the implementation, when one changes its identity, its
// spec with -nonstatus-unsent=false, or one is declared in a file it
// does not load (other build tags; a test file's does not count: no
// program of the module runs it). The
// interface is internal to the module: an exported one keeps it, as the
// full checker, a package at a time, does.
func TestFixFollowsInterfaceCallToTheModulesImplementations(t *testing.T) {
	bin := buildLint(t)
	const at = "ctrl/ctrl.go:27"
	const notFollowed = "d is passed to sched.Scheduler.ShouldSchedule at line 24 (ShouldSchedule is a method of an interface: which implementation runs there is not followed)"
	const passed = "it is passed to (example.com/realmod/internal/sched.Scheduler).ShouldSchedule at line 24, which runs "
	for _, c := range []struct {
		name   string
		extra  map[string]string
		driver string
		want   string
		flags  []string
	}{
		{"reader", map[string]string{"reader/reader.go": schedReader}, "export", at + ": fixed: ", nil},
		{"changer", map[string]string{"reader/reader.go": schedReader, "changer/changer.go": schedChanger}, "export", at + ": fixed: ", nil},
		{"changer kept", map[string]string{"reader/reader.go": schedReader, "changer/changer.go": schedChanger}, "export",
			passed + "example.com/realmod/changer.Changer.ShouldSchedule: d.Spec is changed at ", []string{"-nonstatus-unsent=false"}},
		{"renamer", map[string]string{"reader/reader.go": schedReader, "renamer/renamer.go": schedRenamer}, "export",
			passed + "example.com/realmod/renamer.Renamer.ShouldSchedule: d.Name is changed at renamer.go:12: that is a change of the object's identity", nil},
		// A test file's implementation runs only in its package's test
		// binary, never where the moved write runs: it does not count.
		{"test file", map[string]string{"reader/reader.go": schedReader, "reader/fake_test.go": schedTest}, "export", at + ": fixed: ", nil},
		// A package of test files only (spark-operator's test/drift):
		// nothing of it is in a program of the module.
		{"test-only package", map[string]string{"reader/reader.go": schedReader, "drift/drift_test.go": strings.Replace(schedTest, "package reader", "package drift_test", 1)}, "export", at + ": fixed: ", nil},
		{"other build tags", map[string]string{"reader/reader.go": schedReader, "reader/fake_other.go": "//go:build other\n\n" + schedTest}, "export",
			"a method ShouldSchedule is declared at example.com/realmod/reader/fake_other.go:12, in a file -fix does not load", nil},
		{"helper", map[string]string{"reader/reader.go": schedReader, "ctrl/ctrl.go": schedHelperCtrl}, "export", "ctrl/ctrl.go:31: fixed: ", nil},
		{"helper changer", map[string]string{"reader/reader.go": schedReader, "changer/changer.go": schedChanger, "ctrl/ctrl.go": schedHelperCtrl}, "export",
			passed + "example.com/realmod/changer.Changer.ShouldSchedule: ", []string{"-nonstatus-unsent=false"}},
		{"exported interface", map[string]string{"sched/sched.go": schedPkg, "ctrl/ctrl.go": open(schedCtrl), "reader/reader.go": open(schedReader)}, "export", notFollowed, nil},
		{"per package", map[string]string{"reader/reader.go": schedReader}, "checker", notFollowed, nil},
	} {
		files := map[string]string{"internal/sched/sched.go": schedPkg, "ctrl/ctrl.go": schedCtrl, "kindpatch/kindpatch.go": kindpatchOpts}
		for k, v := range c.extra {
			files[k] = v
		}
		mod := exportedHelperModule(t, files)
		before := readIn(t, mod, "ctrl/ctrl.go")
		_, errOut, _, _ := lintWith(t, mod, bin, c.driver, append(c.flags, "-fix", "./...")...)
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%s: -fix output lacks %q:\n%s", c.name, c.want, errOut)
		}
		after := readIn(t, mod, "ctrl/ctrl.go")
		moved := c.name == "reader" || c.name == "helper" || c.name == "test file" || c.name == "test-only package" || c.name == "changer"
		if moved != (after != before) || moved && !strings.Contains(after, "dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d, patcher.WithNonStatusChangesUnsent())") {
			t.Errorf("%s: ctrl.go changed: %v, want %v:\n%s", c.name, after != before, moved, after)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build ./... after -fix: %v\n%s", c.name, err, out)
		}
	}
}

// requireStubPatcher makes mod require the stub of statuspatch's patcher
// module, which a patcher made with patcher.WithNonStatusChangesUnsent()
// imports (a real operator requires it for its generated patchers).
func requireStubPatcher(t *testing.T, mod string) {
	t.Helper()
	stub, err := filepath.Abs(filepath.Join("lint", "testdata", "src", "github.com", "statuspatch", "statuspatch"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(mod, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = fmt.Fprintf(f, "\nrequire github.com/statuspatch/statuspatch v0.0.0\n\nreplace github.com/statuspatch/statuspatch => %s\n", stub)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

// kindpatchOpts is kindpatchPkg whose constructor takes the patcher's
// options, as a generated one does.
var kindpatchOpts = strings.NewReplacer(
	"\tappsv1 \"k8s.io/api/apps/v1\"", "\t\"github.com/statuspatch/statuspatch/patcher\"\n\tappsv1 \"k8s.io/api/apps/v1\"",
	"obj *appsv1.Deployment) *DeploymentStatusPatcher {", "obj *appsv1.Deployment, opts ...patcher.Option) *DeploymentStatusPatcher {",
).Replace(kindpatchPkg)
