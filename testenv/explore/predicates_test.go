package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// A write queues the reconcile its event would: GenerationChangedPredicate
// drops a status-only write and keeps the create and a spec change; an
// EventFilter sees the owned object's events too, typed.
func TestPredicatesFilterWriteEvents(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := testv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	var sawTyped bool
	onlyLabelled := predicate.NewPredicateFuncs(func(o client.Object) bool {
		if _, ok := o.(*corev1.ConfigMap); ok {
			sawTyped = true
			return o.GetLabels()["watch"] == "yes"
		}
		return true
	})
	nop := func(client.Client, client.Reader) reconcile.Reconciler { return nil }
	ex := &explorer{setup: setupState{s: Scenario{Reconcilers: []Reconciler{{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&corev1.ConfigMap{}},
		Predicates: []predicate.Predicate{predicate.GenerationChangedPredicate{}}, EventFilter: []predicate.Predicate{onlyLabelled}, New: nop}}}},
		o: Options{Backend: Fake(s)}.withDefaults()}
	if err := ex.setup.validate(ex.o); err != nil {
		t.Fatal(err)
	}
	srv, err := ex.o.Backend.begin(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(ex, srv)
	w := book.Key{GVK: testv1.GroupVersion.WithKind("Widget"), NN: types.NamespacedName{Namespace: "ns", Name: "w"}}
	cm := book.Key{GVK: corev1.SchemeGroupVersion.WithKind("ConfigMap"), NN: types.NamespacedName{Namespace: "ns", Name: "cm"}}
	widget := func(gen int64, phase string) map[string]any {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&testv1.Widget{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Generation: gen}, Status: testv1.WidgetStatus{Phase: phase}})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	configMap := func(label string) map[string]any {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: "cm", Labels: map[string]string{"watch": label},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: testv1.GroupVersion.String(), Kind: "Widget", Name: "w", UID: "u", Controller: ptr.To(true)}}}})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	queued := func(what string, k book.Key, content map[string]any, rv string, want bool) {
		t.Helper()
		r.Queue.Items = nil
		r.Book.Record(k, content, rv)
		r.Queue.QueueEvent(k)
		if got := len(r.Queue.Items) == 1; got != want {
			t.Errorf("%s: queued %v, want a reconcile: %t", what, r.Queue.Items, want)
		}
	}
	queued("create", w, widget(1, ""), "1", true)
	queued("status-only write", w, widget(1, "Ready"), "2", false)
	queued("spec change", w, widget(2, "Ready"), "3", true)
	queued("owned, filtered out", cm, configMap("no"), "4", false)
	queued("owned, let through", cm, configMap("yes"), "5", true)
	if !sawTyped {
		t.Error("the EventFilter never saw a *corev1.ConfigMap")
	}
	if !(predicate.GenerationChangedPredicate{}).Update(event.UpdateEvent{ObjectOld: r.Queue.Router().Typed(w, widget(1, "")), ObjectNew: r.Queue.Router().Typed(w, widget(2, ""))}) {
		t.Error("typed versions lost their generation")
	}
}
