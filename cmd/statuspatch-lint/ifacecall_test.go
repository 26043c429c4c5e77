package main

import (
	"os"
	"os/exec"
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
// there, and keeps it, naming the implementation, when one changes its
// spec or one is declared in a file it does not load (other build tags;
// a test file's does not count: no program of the module runs it). The
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
	}{
		{"reader", map[string]string{"reader/reader.go": schedReader}, "export", at + ": fixed: "},
		{"changer", map[string]string{"reader/reader.go": schedReader, "changer/changer.go": schedChanger}, "export",
			passed + "example.com/realmod/changer.Changer.ShouldSchedule: "},
		// A test file's implementation runs only in its package's test
		// binary, never where the moved write runs: it does not count.
		{"test file", map[string]string{"reader/reader.go": schedReader, "reader/fake_test.go": schedTest}, "export", at + ": fixed: "},
		{"other build tags", map[string]string{"reader/reader.go": schedReader, "reader/fake_other.go": "//go:build other\n\n" + schedTest}, "export",
			"a method ShouldSchedule is declared at example.com/realmod/reader/fake_other.go:12, in a file -fix does not load"},
		{"helper", map[string]string{"reader/reader.go": schedReader, "ctrl/ctrl.go": schedHelperCtrl}, "export", "ctrl/ctrl.go:31: fixed: "},
		{"helper changer", map[string]string{"reader/reader.go": schedReader, "changer/changer.go": schedChanger, "ctrl/ctrl.go": schedHelperCtrl}, "export",
			passed + "example.com/realmod/changer.Changer.ShouldSchedule: "},
		{"exported interface", map[string]string{"sched/sched.go": schedPkg, "ctrl/ctrl.go": open(schedCtrl), "reader/reader.go": open(schedReader)}, "export", notFollowed},
		{"per package", map[string]string{"reader/reader.go": schedReader}, "checker", notFollowed},
	} {
		files := map[string]string{"internal/sched/sched.go": schedPkg, "ctrl/ctrl.go": schedCtrl}
		for k, v := range c.extra {
			files[k] = v
		}
		mod := exportedHelperModule(t, files)
		before := readIn(t, mod, "ctrl/ctrl.go")
		_, errOut, _, _ := lintWith(t, mod, bin, c.driver, "-fix", "./...")
		if !strings.Contains(errOut, c.want) {
			t.Errorf("%s: -fix output lacks %q:\n%s", c.name, c.want, errOut)
		}
		after := readIn(t, mod, "ctrl/ctrl.go")
		if moved := c.name == "reader" || c.name == "helper" || c.name == "test file"; moved != (after != before) || moved && !strings.Contains(after, "dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d)") {
			t.Errorf("%s: ctrl.go changed: %v, want %v:\n%s", c.name, after != before, moved, after)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build ./... after -fix: %v\n%s", c.name, err, out)
		}
	}
}
