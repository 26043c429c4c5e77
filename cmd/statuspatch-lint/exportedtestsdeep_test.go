package main

import (
	"strings"
	"testing"
)

// storePkg is kueue's scheduler cache reduced (schdcache.Cache's
// AddClusterQueue, which hands the ClusterQueue on to newClusterQueue
// and updateClusterQueue): another package of the module a test hands
// its object to before calling the helper.
const storePkg = `package store

import appsv1 "k8s.io/api/apps/v1"

// Hook is told of a Deployment: no type of the module implements it.
type Hook interface {
	Touch(d *appsv1.Deployment)
}

type Store struct {
	names []string
	spec  *appsv1.DeploymentSpec
	hook  Hook
}

// Add reads d, keeps a reference into its spec and sets its finalizers,
// two calls deep: the Update sent neither.
func (s *Store) Add(d *appsv1.Deployment) {
	s.names = append(s.names, d.Name)
	s.keep(d)
}

func (s *Store) keep(d *appsv1.Deployment) {
	if d.Spec.Replicas != nil {
		s.spec = &d.Spec
	}
	d.SetFinalizers([]string{"example.com/seen"})
}

// Track sets d's status three calls deep.
func (s *Store) Track(d *appsv1.Deployment) { s.track(d) }

func (s *Store) track(d *appsv1.Deployment) { observe(d) }

func observe(d *appsv1.Deployment) { d.Status.ObservedGeneration = d.Generation }

// Notify hands d to its hook.
func (s *Store) Notify(d *appsv1.Deployment) { s.hook.Touch(d) }

// Echo gives d back to its caller.
func (s *Store) Echo(d *appsv1.Deployment) *appsv1.Deployment { return d }
`

// deepTest hands the object it built to the store (CALL) before calling
// the helper with it, as kueue's clusterqueue_controller_test.go:215
// hands cq to cqCache.AddClusterQueue before its call at line 241.
const deepTest = `package ctrlt

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"

	"example.com/realmod/store"
)

func TestUpdateStatus(t *testing.T) {
	ctx := context.Background()
	built := &appsv1.Deployment{}
	s := &store.Store{}
	s.CALL(built)
	r := &Reconciler{}
	if err := r.updateStatus(ctx, built, "Gone"); err != nil {
		t.Fatal(err)
	}
}
`

// A test's call handing the object to a function of the module is judged
// by that function's body, to the end of the chain (the command types the
// test files: lint.ResolveTestCalls, migrate.NewCallJudge): one that
// only reads it, keeps a reference into its spec or sets its finalizers
// (what the Update did not send) leaves the helper
// moving with its test call rewritten (until s102 by its name, Add:
// "which may change it"). The migrated files are
// testdata/exportedhelper/testsdeep/*.golden.
func TestFixMovesHelperWhoseTestHandsObjectToReader(t *testing.T) {
	bin := buildLint(t)
	mod, _ := fixExported(t, bin, map[string]string{"store/store.go": storePkg, "ctrlt/ctrlt.go": testedPkg, "ctrlt/ctrlt_test.go": strings.Replace(deepTest, "CALL", "Add", 1)},
		"ctrlt/ctrlt.go:30: fixed: move the status write onto DeploymentStatusPatcher (updateStatus takes the patcher its callers make with NewDeploymentStatusPatcher, its decision in Retry; its calls in the package's tests pass one made there over their object)")
	matchGoldens(t, mod, "testsdeep", "", "ctrlt/ctrlt.go", "ctrlt/ctrlt_test.go")
	vetFixed(t, mod)
}

// One that may change its status keeps the helper, naming the deepest
// line and the calls down to it; one handing it through an interface the
// module does not implement keeps it, naming the method; so does one
// giving it back, whose result the test may change.
func TestFixKeepsHelperWhoseTestHandsObjectToWriter(t *testing.T) {
	bin := buildLint(t)
	for _, c := range []struct{ call, why string }{
		{"Track", "(it passes built to Track at line 16, which sets d.Status.ObservedGeneration at store.go:35, through s.track at store.go:31, observe at store.go:33)"},
		{"Echo", "(it passes built to Echo at line 16, which returns d at store.go:41, which -fix does not follow: it may change it)"},
		{"Notify", "(it passes built to Notify at line 16, which hands d to the interface method store.Hook.Touch, whose implementations -fix cannot follow, at store.go:38: it may change it)"},
	} {
		t.Run(c.call, func(t *testing.T) {
			test := strings.Replace(deepTest, "CALL", c.call, 1)
			mod := exportedHelperModule(t, map[string]string{"store/store.go": storePkg, "ctrlt/ctrlt.go": testedPkg, "ctrlt/ctrlt_test.go": test})
			_, out, _, _ := lintWith(t, mod, bin, "export", "-fix", "./...")
			want := "ctrlt/ctrlt.go:30:9: handwritten status write to Deployment: use DeploymentStatusPatcher (example.com/realmod/kindpatch) (not moved to the patcher: d is a parameter of updateStatus: the test file ctrlt_test.go:18 calls updateStatus with built, which it may change before the call " + c.why + ": a patcher made over it would take the change as its base and not send it, where the Update sent the whole status)"
			if !strings.Contains(out, want) {
				t.Errorf("-fix: output lacks %q:\n%s", want, out)
			}
			if got := readIn(t, mod, "ctrlt/ctrlt.go") + readIn(t, mod, "ctrlt/ctrlt_test.go"); got != testedPkg+test {
				t.Errorf("-fix changed the helper's package:\n%s", got)
			}
		})
	}
}
