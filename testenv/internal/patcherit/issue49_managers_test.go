package patcherit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	v1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/testenv"
)

// Issue 49, cases 4 and 5: the server's bookkeeping of managedFields and a
// cache that transforms what it holds are not evidence of another writer.
// A stored write whose answer was lost must not be a Conflict (Retry would
// write it twice).

// untilNextSecond waits for the wall clock's next whole second: the
// managedFields times have one-second resolution, and these tests need
// writes in one second, or in an older one than ours. A wait for the
// clock, not for another goroutine: no race rests on it.
func untilNextSecond() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second).Sub(now))
}

func bumpCounter(w *v1.Widget, name string) {
	if w.Status.Counters == nil {
		w.Status.Counters = map[string]int64{}
	}
	w.Status.Counters[name]++
}

func hasManager(w *v1.Widget, name string) bool {
	for _, m := range w.ManagedFields {
		if m.Manager == name {
			return true
		}
	}
	return false
}

// managerCaps are the ways the server's cap of ten Update entries acts in
// the revision of our own write. The creator's entry and ten other
// controllers' (distinct field owners, each writing its own status counter)
// make eleven: the server has already merged the oldest two into the
// "ancient-changes" bucket. Our write (an Update entry more) makes it
// merge again, oldest first, same-second ties by the entry's identifier
// (its manager name first):
//
//   - "b-controller" sorts right after the bucket: in one second with the
//     others, our new entry itself is merged into "ancient-changes" (the
//     bucket restamped with our time, our entry gone);
//   - "k-controller" in the others' second: another controller's entry
//     is merged into the bucket (the bucket's fields change);
//   - "k-controller" a second after the others, the bucket's entries a
//     second before them: the bucket is restamped with the merged
//     entry's newer time.
var managerCaps = []struct {
	name, owner string
	// seconds[i] is true when the i-th write (0: controller-0, 1-9: the
	// other nine, 10: ours) starts a new wall-clock second.
	seconds func(i int) bool
}{
	{"same second, ours merged into ancient-changes", "b-controller", func(i int) bool { return i == 0 }},
	{"same second, another merged", "k-controller", func(i int) bool { return i == 0 }},
	{"older entries, ancient-changes restamped", "k-controller", func(i int) bool { return i == 1 || i == 10 }},
}

// Case 4: more than ten Update managers. Stored, answer lost: the server's
// merge into "ancient-changes" in our write's revision was taken for
// another writer's stamp: a Conflict, and Retry wrote "mine" twice; or
// Unknown, a cause the error table did not list. nil is wanted
// (wantStored), but where our own entry was merged away, nothing names
// the writer: Unknown is allowed there (wantStoredNotConflict).
func TestIssue49MoreThanTenManagersIsNotAConflict(t *testing.T) {
	e := env(t)
	for _, mc := range managerCaps {
		for _, lost := range lostAnswers {
			for _, retry := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/%s", mc.name, lost.name, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
					key := newWidget(t, e.Client)
					ft := &faultyTransport{plan: []plannedFault{lost.fault}}
					if lost.overwrite {
						ft.foreign = foreignAppend(ownClient(t), key, "theirs")
					}
					c := faultyClient(t, e, ft)
					for i := range 10 { // ten Update managers of status, distinct owners
						if mc.seconds(i) {
							untilNextSecond()
						}
						other, err := patcher.Fetch(ctx, e.Client, key, &v1.Widget{}, patcher.WithMetrics(nil), patcher.WithFieldOwner(fmt.Sprintf("controller-%d", i)))
						if err != nil {
							t.Fatal(err)
						}
						bumpCounter(other.Object(), fmt.Sprintf("m%d", i)) // each keeps its field: an entry with none is dropped
						if err := other.Flush(ctx); err != nil {
							t.Fatal(err)
						}
					}
					if !hasManager(get(t, e.Client, key), "ancient-changes") {
						t.Fatal("setup: no ancient-changes entry after eleven Update managers")
					}
					if mc.seconds(10) {
						untilNextSecond()
					}
					p, err := patcher.Fetch(ctx, c, key, &v1.Widget{}, append(historyOptions(c), patcher.WithFieldOwner(mc.owner))...)
					if err != nil {
						t.Fatal(err)
					}
					runs, err := decideMine(p, retry)
					got := get(t, e.Client, key)
					if n := countOf(got.Status.Items, "mine"); n != 1 {
						t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got.Status.Items)
					}
					if mc.owner == "b-controller" && hasManager(got, mc.owner) && !lost.overwrite {
						t.Logf("setup: our entry was not merged (the writes spanned a second?)")
					}
					if mc.owner == "b-controller" {
						// Our own entry merged into ancient-changes: the
						// writer of that version is any manager the
						// version no longer names, so nothing proves it was
						// ours (docs/patcher.md's error table): nil or
						// Unknown, never a Conflict.
						wantStoredNotConflict(t, err, runs)
						return
					}
					wantStored(t, err, runs)
				})
			}
		}
	}
}

// transforms are the manager caches' DefaultTransforms of case 5.
var transforms = []struct {
	name      string
	transform toolscache.TransformFunc
}{
	{"TransformStripManagedFields", cache.TransformStripManagedFields()},
	{"drop last-applied-configuration", func(in any) (any, error) {
		if o, ok := in.(metav1.Object); ok {
			if a := o.GetAnnotations(); a != nil {
				delete(a, lastApplied)
				o.SetAnnotations(a)
			}
		}
		return in, nil
	}},
}

const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// Case 5: a manager cache with a DefaultTransform, Fetch through the
// manager's (cached) client: the base is the transformed object, not the
// server's. Stored, answer lost: the difference the transform made was
// taken for another writer's: a Conflict and "mine" written twice, or
// Unknown. Both fail here: settling must read the base as the server
// holds it, and nil is wanted (wantStored).
func TestIssue49ATransformingCacheIsNotAConflict(t *testing.T) {
	e := env(t)
	for _, tf := range transforms {
		for _, mode := range []patcher.WriteMode{patcher.WriteMergePatch, patcher.WriteApply} {
			for _, lost := range lostAnswers {
				for _, retry := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%v/%s/%s", tf.name, mode, lost.name, map[bool]string{true: "Retry", false: "Flush"}[retry]), func(t *testing.T) {
						w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: objectName(t), Namespace: "default",
							Annotations: map[string]string{lastApplied: `{"apiVersion":"test.statuspatch.dev/v1","kind":"Widget"}`}},
							Spec: v1.WidgetSpec{Size: 1, Data: "x"}}
						if err := e.Client.Create(ctx, w); err != nil {
							t.Fatal(err)
						}
						key := client.ObjectKeyFromObject(w)
						ft := &faultyTransport{plan: []plannedFault{lost.fault}}
						if lost.overwrite {
							ft.foreign = foreignAppend(ownClient(t), key, "theirs")
						}
						mgr := faultyManager(t, e, ft, manager.Options{Cache: cache.Options{DefaultTransform: tf.transform}})
						pc := patcher.ForManager(mgr, patcher.WithMetrics(nil), fastRetry, patcher.WithFieldOwner("cached-controller"), patcher.WithWriteMode(mode))
						cached := &v1.Widget{}
						if err := wait.PollUntilContextTimeout(ctx, 5*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
							return mgr.GetClient().Get(ctx, key, cached) == nil, nil
						}); err != nil {
							t.Fatalf("setup: the cache never saw the object: %v", err)
						}
						p, err := patcher.Fetch(ctx, pc, key, &v1.Widget{})
						if err != nil {
							t.Fatal(err)
						}
						if base := p.Object(); len(base.ManagedFields) > 0 && base.Annotations[lastApplied] != "" {
							t.Fatal("setup: the base was not read through the transforming cache")
						}
						runs, err := decideMine(p, retry)
						got := get(t, e.Client, key).Status.Items
						if n := countOf(got, "mine"); n != 1 {
							t.Fatalf("= %v after %d runs: mine stored %d times (items %v)", err, runs, n, got)
						}
						wantStored(t, err, runs)
					})
				}
			}
		}
	}
}

// faultyManager starts a manager on e whose status PATCHes pass through
// ft, and stops it at the test's end.
func faultyManager(t *testing.T, e *testenv.Env, ft *faultyTransport, opts manager.Options) manager.Manager {
	t.Helper()
	fe := *e
	fe.Config = rest.CopyConfig(e.Config)
	fe.Config.Wrap(ft.wrap)
	mgr, err := fe.NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = mgr.Start(mctx) }()
	t.Cleanup(func() { cancel(); <-done })
	if !mgr.GetCache().WaitForCacheSync(mctx) {
		t.Fatal("setup: the cache did not sync")
	}
	return mgr
}
