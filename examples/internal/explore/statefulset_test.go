package explore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
	"github.com/statuspatch/statuspatch/testenv/explore"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/explore/buggy"
	"github.com/statuspatch/statuspatch/examples/internal/statefulset"
)

// The StatefulSet examples run on the full API (kube-apiserver against
// testenv's etcd): the embedded server serves no StatefulSets. One server
// for the package's full-API tests, started by the first, stopped by
// TestMain.
var full struct {
	once sync.Once
	env  *testenv.Env
	stop func()
	err  error
}

func fullAPI(t *testing.T) *testenv.Env {
	t.Helper()
	if _, _, err := testenv.KubeAPIServerPath(); err != nil {
		if os.Getenv("STATUSPATCH_REQUIRE_FULLAPI") == "1" {
			t.Fatalf("STATUSPATCH_REQUIRE_FULLAPI=1 (CI, after make test-assets) and no kube-apiserver: %v", err)
		}
		t.Skipf("skipping: the StatefulSet example needs the full API, which needs a kube-apiserver binary: %v", err)
	}
	full.once.Do(func() {
		s := runtime.NewScheme()
		if err := errors.Join(clientgoscheme.AddToScheme(s), demov1.AddToScheme(s)); err != nil {
			full.err = err
			return
		}
		full.env, full.stop, full.err = testenv.StartServer(ctx, testenv.WithFullAPI(),
			testenv.WithCRDDirectory("../../config/crd/bases"), testenv.WithScheme(s))
		if full.err == nil {
			t.Logf("full API (%s) ready in %s", full.env.BackendReason, full.env.StartupTime.Round(time.Millisecond))
		}
	})
	if full.err != nil {
		t.Fatal(full.err)
	}
	return full.env
}

const dbNamespace = "databases"

func database() *demov1.Database {
	return &demov1.Database{ObjectMeta: metav1.ObjectMeta{Namespace: dbNamespace, Name: "db"},
		Spec: demov1.DatabaseSpec{Image: "postgres:17"}}
}

// deletions watches the reconciler's StatefulSet deletes from outside the
// explorer, reading the server directly (so the explorer records nothing):
// a delete of the StatefulSet whose UID the Database's status records, at
// that moment, deleted one that nothing had replaced.
type deletions struct {
	server client.Reader
	wrong  []string
}

// auditing is the reconciler's client with deletions watching its deletes.
type auditing struct {
	client.Client
	d *deletions
}

func (c auditing) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	if _, ok := obj.(*appsv1.StatefulSet); !ok {
		return c.Client.Delete(ctx, obj, opts...)
	}
	key := client.ObjectKeyFromObject(obj)
	cur, db := &appsv1.StatefulSet{}, &demov1.Database{}
	errCur, errDB := c.d.server.Get(ctx, key, cur), c.d.server.Get(ctx, key, db)
	err := c.Client.Delete(ctx, obj, opts...)
	if err == nil && errCur == nil && errDB == nil && cur.UID == db.Status.StatefulSetUID {
		c.d.wrong = append(c.d.wrong, fmt.Sprintf("StatefulSet %s (uid %s) deleted although Database %s records it as its own: nothing replaced it",
			key, short(cur.UID), key))
	}
	return err
}

func short[S ~string](s S) string { return string(s)[:min(8, len(s))] }

// databaseScenario explores rec's Reconciler on one Database, with the
// replace-statefulset action if replace is set. It checks, at every steady
// state, that no StatefulSet was deleted that had not been replaced, and
// that the Database records the StatefulSet it controls.
func databaseScenario(env *testenv.Env, replace bool, rec func(c client.Client, api client.Reader) reconcile.Reconciler) explore.Scenario {
	var d *deletions
	s := explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "database", For: &demov1.Database{}, Owns: []client.Object{&appsv1.StatefulSet{}},
			New: func(c client.Client, api client.Reader) reconcile.Reconciler {
				d = &deletions{server: env.Client} // a new schedule
				return rec(auditing{Client: c, d: d}, api)
			}}},
		Objects: []client.Object{database()},
		Invariant: func(ctx context.Context, r client.Reader) error {
			if len(d.wrong) > 0 {
				return errors.New(strings.Join(d.wrong, "; "))
			}
			key := client.ObjectKeyFromObject(database())
			db, sts := &demov1.Database{}, &appsv1.StatefulSet{}
			if err := errors.Join(r.Get(ctx, key, db), r.Get(ctx, key, sts)); err != nil {
				return err
			}
			if sts.UID != db.Status.StatefulSetUID || !metav1.IsControlledBy(sts, db) {
				return fmt.Errorf("Database records StatefulSet uid %s, the StatefulSet is %s (controlled: %t)",
					short(db.Status.StatefulSetUID), short(sts.UID), metav1.IsControlledBy(sts, db))
			}
			return nil
		},
	}
	if replace {
		s.Actions = []explore.Action{{Name: "replace-statefulset", Run: replaceStatefulSet}}
	}
	return s
}

// replaceStatefulSet is kubectl replace --force of the StatefulSet as
// exported: deleted and created again with the same spec and owner
// reference, under a new UID. Before the controller created it, nothing.
func replaceStatefulSet(ctx context.Context, c client.Client) error {
	return replaceStatefulSetIn(ctx, c, client.ObjectKeyFromObject(database()))
}

func replaceStatefulSetIn(ctx context.Context, c client.Client, key client.ObjectKey) error {
	sts := &appsv1.StatefulSet{}
	if err := c.Get(ctx, key, sts); apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	uid := sts.UID
	if err := c.Delete(ctx, sts, client.Preconditions{UID: &uid}); err != nil {
		return err
	}
	again := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: sts.Namespace, Name: sts.Name,
		Labels: sts.Labels, OwnerReferences: sts.OwnerReferences}, Spec: sts.Spec}
	return c.Create(ctx, again)
}

func buggyDatabase(c client.Client, _ client.Reader) reconcile.Reconciler {
	return &buggy.DatabaseReconciler{Client: c}
}

func fixedDatabase(c client.Client, api client.Reader) reconcile.Reconciler {
	return &statefulset.DatabaseReconciler{Client: patcher.ForManager(explore.Clients{Client: c, APIReader: api})}
}

// TestDatabaseDeletesItsNewStatefulSet: the second reconcile reads the
// Database from a cache without the first one's status write (no UID
// recorded yet), sees the StatefulSet the first one created, takes it for
// a replacement and deletes it.
func TestDatabaseDeletesItsNewStatefulSet(t *testing.T) {
	env := fullAPI(t)
	o := explore.Options{Backend: explore.Server(env), Budget: searchBound, StopAtFirst: true}
	// The explorer's built-in check finds it before the scenario's own.
	v := mustFind(t, databaseScenario(env, false, buggyDatabase), o, explore.InvariantOwnDelete, 2)
	if !strings.Contains(v.Message, "created by step 1 was deleted by step 2") {
		t.Fatalf("want the StatefulSet step 1 created deleted by step 2, got %s", v.Message)
	}
	// The scenario's own invariant says the same with the built-in one off.
	o.Disable = []string{explore.InvariantOwnDelete}
	v = mustFind(t, databaseScenario(env, false, buggyDatabase), o, explore.InvariantUser, 2)
	if !strings.Contains(v.Message, "nothing replaced it") {
		t.Fatalf("want the StatefulSet deleted though not replaced, got %s", v.Message)
	}
}

// TestDatabaseRecreatesOnlyReplacedStatefulSet: the fixed reconciler, on
// the same exploration, and with a replacement interleaved anywhere:
// every StatefulSet it deletes was replaced, and it ends recording the
// StatefulSet it controls. Depth 5: a delete without the UID precondition
// deletes the recreated StatefulSet after create, replace, delete,
// recreate and a stale read of the StatefulSet, five chosen steps (found
// in a few seconds when the precondition is taken out).
func TestDatabaseRecreatesOnlyReplacedStatefulSet(t *testing.T) {
	env := fullAPI(t)
	for _, replace := range []bool{false, true} {
		t.Run(fmt.Sprintf("replace=%t", replace), func(t *testing.T) {
			o := explore.Options{Backend: explore.Server(env), Budget: 90 * time.Second, Depth: 5}
			explore.Check(t, databaseScenario(env, replace, fixedDatabase), o)
		})
	}
}
