package intercept

import (
	"reflect"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// The reconcilers' clients can be compared and hashed, as a manager's
// client can: statuspatch keys its record of own writes by client, and an
// interceptor client (a struct holding funcs) cannot be a map key.
func TestReconcilerClientsAreComparable(t *testing.T) {
	ic := interceptor.NewClient(fake.NewClientBuilder().Build(), interceptor.Funcs{})
	if reflect.ValueOf(ic).Comparable() {
		t.Skip("this controller-runtime's interceptor client is comparable already")
	}
	c := Comparable(ic, nil)
	if !reflect.ValueOf(c).Comparable() {
		t.Fatalf("%T is not comparable", c)
	}
	if _, ok := c.(client.WithWatch); !ok {
		t.Errorf("%T lost WithWatch", c)
	}
	m := map[client.Client]bool{c: true} // would panic for ic
	if !m[c] {
		t.Fatal("lookup failed")
	}
}
