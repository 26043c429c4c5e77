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
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
)

// A write to, or the deletion of, an object of an Owns kind queues its
// controller owner's reconcile, as the builder's Owns does; other owner
// references queue nothing.
func TestOwnsQueuesControllerOwner(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	if err := testv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	nop := func(client.Client, client.Reader) reconcile.Reconciler { return nil }
	ex := &explorer{setup: setupState{s: Scenario{Reconcilers: []Reconciler{
		{Name: "widget", For: &testv1.Widget{}, Owns: []client.Object{&corev1.ConfigMap{}}, New: nop},
		{Name: "gadget", For: &testv1.Gadget{}, New: nop},
	}}}, o: Options{Backend: Fake(s)}.withDefaults()}
	if err := ex.setup.validate(ex.o); err != nil {
		t.Fatal(err)
	}
	srv, err := ex.o.Backend.begin(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newRun(ex, srv)

	cmGVK := corev1.SchemeGroupVersion.WithKind("ConfigMap")
	widgetGVK := testv1.GroupVersion.WithKind("Widget")
	cm := book.Key{GVK: cmGVK, NN: types.NamespacedName{Namespace: "ns", Name: "cm"}}
	ref := func(kind, name string, controller bool) metav1.OwnerReference {
		return metav1.OwnerReference{APIVersion: testv1.GroupVersion.String(), Kind: kind, Name: name, UID: "u", Controller: ptr.To(controller)}
	}
	content := func(refs ...metav1.OwnerReference) map[string]any {
		obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm", OwnerReferences: refs}}
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	queued := func() []string {
		var out []string
		for _, it := range r.Queue.Items {
			out = append(out, ex.setup.itemID(it))
		}
		r.Queue.Items = nil
		return out
	}
	want := func(what string, got []string, ids ...string) {
		t.Helper()
		if len(got) != len(ids) {
			t.Errorf("%s: queued %q, want %q", what, got, ids)
			return
		}
		for i := range ids {
			if got[i] != ids[i] {
				t.Errorf("%s: queued %q, want %q", what, got, ids)
			}
		}
	}

	r.Book.Record(cm, content(ref("Widget", "w1", true), ref("Widget", "other", false), ref("Gadget", "g", true)), "1")
	r.Queue.QueueEvent(cm)
	want("created", queued(), "widget:ns/w1")

	r.Book.Record(cm, content(ref("Widget", "w2", true)), "2")
	r.Queue.QueueEvent(cm)
	want("controller changed", queued(), "widget:ns/w2", "widget:ns/w1")

	r.Book.Record(cm, nil, "")
	r.Queue.QueueEvent(cm)
	want("deleted", queued(), "widget:ns/w2")

	if got := r.Queue.Router().ControllerOwners(book.Key{GVK: widgetGVK}, widgetGVK); got != nil {
		t.Errorf("an object never seen has owners %v", got)
	}
}

// Owns with a kind outside the scheme is refused up front.
func TestOwnsUnknownKind(t *testing.T) {
	s := runtime.NewScheme()
	if err := testv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	ex := &explorer{setup: setupState{s: Scenario{Reconcilers: []Reconciler{{Name: "widget", For: &testv1.Widget{},
		Owns: []client.Object{&corev1.ConfigMap{}}, New: func(client.Client, client.Reader) reconcile.Reconciler { return nil }}}}},
		o: Options{Backend: Fake(s)}.withDefaults()}
	if err := ex.setup.validate(ex.o); err == nil {
		t.Fatal("validate accepted an Owns kind outside the scheme")
	}
}
