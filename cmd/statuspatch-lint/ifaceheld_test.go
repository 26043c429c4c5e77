package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// An events package of the module as karpenter's pkg/events: an Event
// holds the object it is about, and a Recorder publishes them; ctrl
// publishes an Event holding the Deployment it writes, through a field
// its callers set.
const (
	heldEvents = `package events

import "sigs.k8s.io/controller-runtime/pkg/client"

type Event struct {
	InvolvedObject client.Object
	Reason         string
}

type Recorder interface {
	Publish(...Event)
}
`
	heldCtrl = `package ctrl

import (
	"context"

	"example.com/realmod/internal/events"
	"example.com/realmod/kindpatch"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var _ = kindpatch.NewDeploymentStatusPatcher

type Reconciler struct {
	Client client.Client
	Rec    events.Recorder
}

func (r *Reconciler) Sync(ctx context.Context, key client.ObjectKey) error {
	d := &appsv1.Deployment{}
	if err := r.Client.Get(ctx, key, d); err != nil {
		return err
	}
	r.Rec.Publish(events.Event{InvolvedObject: d, Reason: "Seen"})
	d.Status.Replicas = 1
	return r.Client.Status().Update(ctx, d)
}
`
	// heldReader keeps the reasons; the object it only compares.
	heldReader = `package reader

import "example.com/realmod/internal/events"

type Recorder struct{ reasons []string }

func (r *Recorder) Publish(evts ...events.Event) {
	for _, e := range evts {
		if e.InvolvedObject == nil {
			continue
		}
		r.reasons = append(r.reasons, e.Reason)
	}
}
`
	// heldChanger changes the spec of what an event holds.
	heldChanger = `package changer

import (
	"example.com/realmod/internal/events"
	appsv1 "k8s.io/api/apps/v1"
)

type Recorder struct{}

func (Recorder) Publish(evts ...events.Event) {
	for _, e := range evts {
		if d, ok := e.InvolvedObject.(*appsv1.Deployment); ok {
			d.Spec.Replicas = nil
		}
	}
}
`
	// heldFake keeps the events for the test to look at.
	heldFake = `package reader

import "example.com/realmod/internal/events"

type fake struct{ got []events.Event }

func (f *fake) Publish(evts ...events.Event) { f.got = append(f.got, evts...) }
`
)

// -fix under the whole-module driver moves a write past an interface
// call given a holder of the object (karpenter's
// c.recorder.Publish(events.Event{InvolvedObject: nodeClaim})) when every
// implementation in the module only reads what the holder holds
// (ParamsFact.HeldParams), a test file's not counted (its patcher made
// with patcher.WithNonStatusChangesUnsent(), as every move past an
// interface call the module driver resolves: the plan is made before
// the implementations are seen); it keeps it,
// naming the implementation, when one changes it, and, naming why, when
// the interface is one other modules may implement or only the package
// is analysed.
func TestFixFollowsHolderIntoTheModulesImplementations(t *testing.T) {
	bin := buildLint(t)
	const at = "ctrl/ctrl.go:26"
	const passed = "it is passed to (example.com/realmod/internal/events.Recorder).Publish at line 24, which runs "
	for _, c := range []struct {
		name   string
		extra  map[string]string
		driver string
		want   string
		moved  bool
	}{
		{"reader", map[string]string{"reader/reader.go": heldReader}, "export", at + ": fixed: ", true},
		{"test file", map[string]string{"reader/reader.go": heldReader, "reader/fake_test.go": heldFake}, "export", at + ": fixed: ", true},
		{"changer", map[string]string{"reader/reader.go": heldReader, "changer/changer.go": heldChanger}, "export",
			passed + "example.com/realmod/changer.Recorder.Publish: ", false},
		{"keeper", map[string]string{"reader/reader.go": heldFake}, "export",
			passed + "example.com/realmod/reader.fake.Publish: where evts is handed on at ", false},
		{"exported interface", map[string]string{"events/events.go": heldEvents, "ctrl/ctrl.go": openEvents(heldCtrl), "reader/reader.go": openEvents(heldReader)}, "export",
			"it is passed to events.Recorder.Publish at line 24 (Publish is a method of an interface other modules may implement: exported, outside internal/, every method exported; which implementation runs there is not followed)", false},
		{"per package", map[string]string{"reader/reader.go": heldReader}, "checker",
			"it is passed to events.Recorder.Publish at line 24 (Publish is a method of an interface: which implementation runs there is followed only by statuspatch-lint -fix on the whole module)", false},
	} {
		files := map[string]string{"internal/events/events.go": heldEvents, "ctrl/ctrl.go": heldCtrl, "kindpatch/kindpatch.go": kindpatchOpts}
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
		if c.moved != (after != before) || c.moved && !strings.Contains(after, "dPatcher := kindpatch.NewDeploymentStatusPatcher(r.Client, d, patcher.WithNonStatusChangesUnsent())") {
			t.Errorf("%s: ctrl.go changed: %v, want %v:\n%s", c.name, after != before, c.moved, after)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir, cmd.Env = mod, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go build ./... after -fix: %v\n%s", c.name, err, out)
		}
	}
}

// openEvents is src importing events from outside internal/.
func openEvents(src string) string {
	return strings.ReplaceAll(src, "example.com/realmod/internal/events", "example.com/realmod/events")
}
