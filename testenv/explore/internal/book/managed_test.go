package book

import (
	"encoding/json"
	"testing"
)

// managedObject is an object whose managedFields are entries, each a
// manager, an operation and a fieldsV1 in the server's JSON encoding.
func managedObject(t *testing.T, entries ...[3]string) map[string]any {
	t.Helper()
	var mfs []any
	for _, e := range entries {
		var fields map[string]any
		if err := json.Unmarshal([]byte(e[2]), &fields); err != nil {
			t.Fatal(err)
		}
		mfs = append(mfs, map[string]any{"manager": e[0], "operation": e[1], "fieldsV1": fields})
	}
	return map[string]any{"metadata": map[string]any{"managedFields": mfs}}
}

// fieldManagers reads fieldsV1 as the server encodes it: list items by
// key, label keys holding dots, a map owned whole, a field beneath the
// leaf; and it never takes one leaf for another whose name shares a
// prefix.
func TestFieldManagersDecodeFieldsV1(t *testing.T) {
	obj := managedObject(t,
		[3]string{"ctl", "Apply", `{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:status":{},"f:type":{}}},"f:plan":{}}}`},
		[3]string{"kubectl", "Update", `{"f:metadata":{"f:labels":{".":{},"f:app.kubernetes.io/name":{}}},"f:status":{"f:phase":{}}}`},
		[3]string{"tierer", "Update", `{"f:metadata":{"f:labels":{"f:tier":{}}}}`},
	)
	for _, c := range []struct {
		fields []string
		want   string // the manager, or "" for none
	}{
		{[]string{"status", "conditions"}, "ctl"},                             // its items, by key
		{[]string{"status", "plan", "id"}, "ctl"},                             // an ancestor owned whole
		{[]string{"status", "phase"}, "kubectl"},                              // the leaf itself
		{[]string{"metadata", "labels", "app.kubernetes.io/name"}, "kubectl"}, // a name with dots
		{[]string{"metadata", "labels", "app"}, ""},                           // not a prefix of another name
		{[]string{"status", "phaseDetail"}, ""},                               // nor of a field name
		{[]string{"spec", "size"}, ""},
	} {
		got, ok := fieldManagers(obj, c.fields)
		if !ok {
			t.Fatalf("%v: fieldsV1 did not decode", c.fields)
		}
		var names []string
		for m := range got {
			names = append(names, m.manager)
		}
		switch {
		case c.want == "" && len(names) != 0, c.want != "" && (len(names) != 1 || names[0] != c.want):
			t.Errorf("%v: managed by %v, want %q", c.fields, names, c.want)
		}
	}
	if _, ok := fieldManagers(managedObject(t, [3]string{"x", "Apply", `{"f:status":{"nonsense":{}}}`}), []string{"status"}); ok {
		t.Error("a fieldsV1 that does not decode: want ok false (no restated apply is claimed on it)")
	}
}
