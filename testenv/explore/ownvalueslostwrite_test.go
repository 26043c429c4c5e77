package explore_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// sizeApplier gives Widget ns/ov-w a Gizmo labelled size=<spec.size>, by
// a forced server-side apply (field manager "widget"), as LeaderWorkerSet
// applies its leader StatefulSet's template: it reads the Gizmo from the
// cache first, and applies whatever it found, or, onCreate, only when it
// found none (a value set on create, which the steady state leaves).
type sizeApplier struct {
	c        client.Client
	onCreate bool
}

func (r *sizeApplier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	w := &testv1.Widget{}
	if err := r.c.Get(ctx, req.NamespacedName, w); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.c.Get(ctx, req.NamespacedName, &testv1.Gizmo{})
	if client.IgnoreNotFound(err) != nil || (err == nil && r.onCreate) {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	g := &testv1.Gizmo{TypeMeta: metav1.TypeMeta{APIVersion: testv1.GroupVersion.String(), Kind: "Gizmo"},
		ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace, Name: w.Name,
			Labels: map[string]string{"size": strconv.Itoa(int(w.Spec.Size))}}}
	if err := controllerutil.SetControllerReference(w, g, r.c.Scheme()); err != nil {
		return ctrl.Result{}, err
	}
	data, err := json.Marshal(g)
	if err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.c.Patch(ctx, g, client.RawPatch(types.ApplyPatchType, data), client.FieldOwner("widget"), client.ForceOwnership)
}

// ownValuesScenario: sizeApplier on Widget ns/ov-w; the user's actions
// grow (spec.size 0 -> 1) and replace (kubectl replace --force of the
// Gizmo: deleted and created again from what it read, its managedFields
// and label size set to label when not "").
func ownValuesScenario(onCreate bool, label string) explore.Scenario {
	key := types.NamespacedName{Namespace: "ns", Name: "ov-w"}
	return explore.Scenario{
		Reconcilers: []explore.Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&testv1.Gizmo{}},
			New: func(c client.Client, _ client.Reader) reconcile.Reconciler {
				return &sizeApplier{c: c, onCreate: onCreate}
			}}},
		Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}},
		Actions: []explore.Action{{Name: "grow", Run: func(ctx context.Context, c client.Client) error {
			w := &testv1.Widget{}
			if err := c.Get(ctx, key, w); err != nil {
				return err
			}
			w.Spec.Size = 1
			return c.Update(ctx, w)
		}}, {Name: "replace", Run: func(ctx context.Context, c client.Client) error {
			g := &testv1.Gizmo{}
			if err := c.Get(ctx, key, g); err != nil {
				return client.IgnoreNotFound(err)
			}
			if err := c.Delete(ctx, g); err != nil {
				return err
			}
			g.ResourceVersion, g.UID, g.ManagedFields = "", "", nil
			if label != "" {
				g.Labels["size"] = label
			}
			return c.Create(ctx, g)
		}}},
	}
}

// TestLostWriteOverOwnValuesJudgedFresh: step 1 applies the Gizmo with
// size=0 (v2); the user grows the Widget and replaces the Gizmo (v4,
// created again from v2); step 4 reads the Gizmo's absence (v1) from a
// stale cache and applies size=1 over v4 (issue 82's second
// LeaderWorkerSet schedule, examples/realops). v4's size is the value
// the reconciler's own apply set on the earlier object under the name,
// so the loss is judged as over its own write, with step 4's reads
// fresh: the applier that owns the label applies size=1 from v4 too, and
// nothing is lost. One that sets it only on create leaves v4's size=0
// from a fresh read: its stale read re-initialised the user's object,
// and the loss stands; as does one over a value the user chose (99),
// never the reconciler's.
func TestLostWriteOverOwnValuesJudgedFresh(t *testing.T) {
	const replay = "widget:ns/ov-w@0,0 !grow !replace widget:ns/ov-w@0,3"
	const lost = "Gizmo ns/ov-w: metadata.labels.size written by step 3 (v4) overwritten by step 4 (v5), which had seen only v1"
	for _, tc := range []struct {
		name     string
		onCreate bool
		label    string // the re-created Gizmo's size ("": as read)
		lost     string // "": no violation
	}{
		{"the steady state owns the field", false, "", ""},
		{"a value set on create only", true, "", lost + " (values widget's own earlier write set under the name)"},
		{"a value the user chose", false, "99", lost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := explore.Options{Replay: replay, Disable: []string{explore.InvariantObservedGenerationStuck}} // it keeps no status
			replayLost(t, ownValuesScenario(tc.onCreate, tc.label), o, tc.lost)
		})
	}
}
