package explore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/statefulset"
)

// The Database controller on a real manager and the full API: the Owns
// watch brings the reconciles (SetupWithManager's builder, gated). It creates the StatefulSet and records its
// UID, follows a spec change, and after a kubectl replace --force of the
// StatefulSet deletes the replacement and records the one it creates.
func TestDatabaseOnManager(t *testing.T) {
	env := fullAPI(t)
	ns := uniq("db-manager")
	mgr, err := env.NewManager(manager.Options{
		Cache:      cache.Options{DefaultNamespaces: map[string]cache.Config{ns: {}}},
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	// SetupWithManager's controller, its reconciles behind a gate: the
	// replacement below (a delete, then a create) must not race with the
	// reconcile its delete brings, which would create the StatefulSet first.
	var gate sync.RWMutex
	r := statefulset.NewDatabaseReconciler(mgr)
	gated := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		gate.RLock()
		defer gate.RUnlock()
		return r.Reconcile(ctx, req)
	})
	err = ctrl.NewControllerManagedBy(mgr).For(&demov1.Database{}).Owns(&appsv1.StatefulSet{}).Named("database").Complete(gated)
	if err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	c := env.Client
	db := &demov1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "db"}, Spec: demov1.DatabaseSpec{Image: "postgres:16"}}
	if err := c.Create(ctx, db); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(db)
	// recorded: the StatefulSet exists, is the one recorded, runs image at
	// generation gen, and is none of the UIDs in not.
	recorded := func(image string, gen int64, not ...types.UID) (types.UID, error) {
		got, sts := &demov1.Database{}, &appsv1.StatefulSet{}
		if err := errors.Join(c.Get(ctx, key, got), c.Get(ctx, key, sts)); err != nil {
			return "", err
		}
		switch {
		case sts.UID != got.Status.StatefulSetUID:
			return "", fmt.Errorf("StatefulSet %s, recorded %q", sts.UID, got.Status.StatefulSetUID)
		case len(sts.Spec.Template.Spec.Containers) != 1 || sts.Spec.Template.Spec.Containers[0].Image != image:
			return "", fmt.Errorf("containers %+v, want image %s", sts.Spec.Template.Spec.Containers, image)
		case got.Status.ObservedGeneration != gen:
			return "", fmt.Errorf("observedGeneration %d, want %d", got.Status.ObservedGeneration, gen)
		}
		for _, uid := range not {
			if sts.UID == uid {
				return "", fmt.Errorf("still StatefulSet %s", uid)
			}
		}
		return sts.UID, nil
	}
	waitFor := func(what string, check func() (types.UID, error)) types.UID {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			uid, err := check()
			if err == nil {
				return uid
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", what, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	first := waitFor("created and recorded", func() (types.UID, error) { return recorded("postgres:16", 1) })

	if err := c.Get(ctx, key, db); err != nil {
		t.Fatal(err)
	}
	db.Spec.Image = "postgres:17"
	if err := c.Update(ctx, db); err != nil {
		t.Fatal(err)
	}
	waitFor("spec change followed", func() (types.UID, error) { return recorded("postgres:17", 2) })

	gate.Lock() // no reconcile runs until the replacement is in place
	err = replaceStatefulSetIn(ctx, c, key)
	replacement := &appsv1.StatefulSet{}
	if err == nil {
		err = c.Get(ctx, key, replacement)
	}
	gate.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	waitFor("replacement deleted, its own recorded", func() (types.UID, error) {
		return recorded("postgres:17", 2, first, replacement.UID)
	})
}
