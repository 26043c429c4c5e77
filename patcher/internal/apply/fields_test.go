package apply

import (
	"encoding/json"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A map whose fields another manager took over leaves the manager that
// made it an entry holding the map with nothing under it, which is also
// how an atomic map is owned. Fields owned under it prove it granular:
// the apply holds only this manager's keys and the changed ones, never
// the other writers' (the oracle's trap seeds 20, 77, 200, 301, 373,
// 393: an apply without the lock put back other writers' counters).
func TestAMapWithFieldsOwnedUnderItIsGranular(t *testing.T) {
	entry := func(manager string, op metav1.ManagedFieldsOperationType, fields string) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, Subresource: "status", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
	}
	dec := func(s string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	mine := entry("w1", metav1.ManagedFieldsOperationApply, `{"f:status":{"f:counters":{"f:w1":{}}}}`)
	leftover := entry("filler", metav1.ManagedFieldsOperationUpdate, `{"f:status":{"f:counters":{}}}`)
	cases := map[string]struct {
		entries []metav1.ManagedFieldsEntry
		want    string
	}{
		"fields under it": {[]metav1.ManagedFieldsEntry{mine, leftover,
			entry("shared", metav1.ManagedFieldsOperationApply, `{"f:status":{"f:counters":{"f:shared":{},"f:w0":{}}}}`)}, `{"counters":{"w1":4}}`},
		"atomic": {[]metav1.ManagedFieldsEntry{entry("w1", metav1.ManagedFieldsOperationApply, `{"f:status":{"f:counters":{}}}`), leftover},
			`{"counters":{"shared":2,"w0":1,"w1":4}}`},
	}
	for name, tc := range cases {
		own, err := OwnersOf(tc.entries, "w1")
		if err != nil {
			t.Fatal(err)
		}
		b := &Fields{Own: own}
		got := b.Status(dec(`{"counters":{"shared":2,"w0":1,"w1":4}}`), dec(`{"counters":{"shared":2,"w0":1,"w1":2}}`))
		if !reflect.DeepEqual(any(got), any(dec(tc.want))) {
			j, _ := json.Marshal(got)
			t.Errorf("%s: the apply's status = %s, want %s", name, j, tc.want)
		}
	}
}
