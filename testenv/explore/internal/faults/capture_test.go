package faults

import (
	"context"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// TestCaptureApplyIsAsSent: a captured apply sends the configuration as
// it was when captured, not as the reconcile changed it after.
func TestCaptureApplyIsAsSent(t *testing.T) {
	ac := corev1ac.ConfigMap("cm", "ns").WithData(map[string]string{"size": "1"})
	k, data, err := book.KeyOfApply(ac)
	if err != nil {
		t.Fatal(err)
	}
	var sent runtime.ApplyConfiguration
	w, send := CaptureApply(k, data, 2, "apply", "ctl/x.go:42", ac, func(_ context.Context, ac runtime.ApplyConfiguration) error {
		sent = ac
		return nil
	})
	ac.Data["size"] = "5"
	if err := send(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, ok := sent.(*corev1ac.ConfigMapApplyConfiguration)
	if !ok || got.Data["size"] != "1" {
		t.Errorf("delivered %#v, want the configuration with size 1", sent)
	}
	if w.Object != "ConfigMap ns/cm" || w.Based != 3 || w.Verb != "apply" || w.At != "ctl/x.go:42" || w.Data != string(data) {
		t.Errorf("Write = %+v", w)
	}
}

// TestCaptureObjectFixesThePatchBody: the patch's body is computed at the
// capture, from the object as it was then, and the object sent is a copy.
func TestCaptureObjectFixesThePatchBody(t *testing.T) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}, Data: map[string]string{"size": "1"}}
	base := cm.DeepCopy()
	cm.Data["size"] = "2"
	b := book.New(fake.NewClientBuilder().WithScheme(clientgoscheme.Scheme).Build(), nil)
	seen := func(book.Key) int { return 0 }
	var sent *corev1.ConfigMap
	var body []byte
	w, send, err := CaptureObject(b, seen, "patch", "ctl/x.go:42", cm, client.MergeFrom(base), func(_ context.Context, obj client.Object, p client.Patch) error {
		sent, _ = obj.(*corev1.ConfigMap)
		var err error
		body, err = p.Data(obj)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data["size"] = "3"
	if err := send(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := `{"data":{"size":"2"}}`; w.Data != want || string(body) != want {
		t.Errorf("Data %q, delivered body %q, want %q", w.Data, body, want)
	}
	if sent == nil || sent.Data["size"] != "2" {
		t.Errorf("delivered %v, want the object with size 2", sent)
	}
	if w.Object != "ConfigMap ns/cm" || w.Based != 1 || w.At != "ctl/x.go:42" {
		t.Errorf("Write = %+v", w)
	}
}
