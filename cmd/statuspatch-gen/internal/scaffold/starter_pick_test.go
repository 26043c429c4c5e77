package scaffold

import (
	"path/filepath"
	"testing"
)

// TestStarterPicksAWriter: the starter test is written for the first kind
// whose reconciler writes a status (kubebuilder's multigroup sample lists
// Captain, whose Reconcile is the scaffold's TODO, before Memcached, which
// writes its conditions), and for the first kind when none does.
func TestStarterPicksAWriter(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "PROJECT"), `layout:
- go.kubebuilder.io/v4
multigroup: true
repo: example.com/sample
resources:
- api:
    namespaced: true
  controller: true
  group: crew
  kind: Captain
  path: example.com/sample/api/crew/v1
  version: v1
- api:
    namespaced: true
  controller: true
  group: cache
  kind: Memcached
  path: example.com/sample/api/cache/v1alpha1
  version: v1alpha1
`)
	writeFile(t, filepath.Join(dir, "Makefile"), "")
	writeFile(t, filepath.Join(dir, "internal", "controller", "crew", "captain_controller.go"), `package crew

type CaptainReconciler struct{}

func (r *CaptainReconciler) Reconcile() error { return nil } // TODO(user)
`)
	memcached := `package cache

type MemcachedReconciler struct{ c writer }

type writer interface{ Status() interface{ Update() error } }

func (r *MemcachedReconciler) Reconcile() error { return r.setAvailable() }

func (r *MemcachedReconciler) setAvailable() error { return r.c.Status().Update() }
`
	writeFile(t, filepath.Join(dir, "internal", "controller", "cache", "memcached_controller.go"), memcached)
	p, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r := starterResource(dir, p); r == nil || r.Kind != "Memcached" {
		t.Fatalf("the starter test is for %v, want Memcached (whose reconciler writes a status)", r)
	}
	writeFile(t, filepath.Join(dir, "internal", "controller", "cache", "memcached_controller.go"), `package cache

type MemcachedReconciler struct{}
`)
	if r := starterResource(dir, p); r == nil || r.Kind != "Captain" {
		t.Fatalf("the starter test is for %v, want Captain (the first: none writes a status)", r)
	}
}
