package explore

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// invRecordLive: in a steady state a Scenario.Records field names no live
// object.
var invRecordLive = invariant{
	name: InvariantRecordLive,
	onSteady: func(ctx context.Context, r *run, _ int) {
		r.checks.checkRecords(ctx, r.ex.setup.records, r.freshReader())
	},
}

// Record says that a field of one kind records an object another kind's
// reconciler created, by UID (or by name): for example a Database's
// status.statefulSetUID. In a steady state a non-empty record must name a
// live object (InvariantRecordLive).
type Record struct {
	// Of is the recording kind, e.g. &v1alpha1.Database{}.
	Of client.Object
	// Field is the dotted path of the field, e.g. "status.statefulSetUID".
	Field string
	// Kind is the recorded object's kind, e.g. &appsv1.StatefulSet{}; it
	// is looked up in the recording object's namespace.
	Kind client.Object
	// ByName: the field holds the object's name, not its UID.
	ByName bool
}

type record struct {
	of, kind schema.GroupVersionKind
	field    []string
	byName   bool
}

// checkRecords fails when, in a steady state, a Record field of records
// names no live object, as lister Lists the server: at least as new as
// the schedule's writes of the kind (listfresh.go).
func (c *checks) checkRecords(ctx context.Context, records []record, lister client.Reader) {
	for _, rec := range records {
		for _, k := range c.book.Keys() {
			h := c.book.History(k)
			cur := h.Versions[h.Newest()]
			if k.GVK != rec.of || cur == nil {
				continue
			}
			val, ok, _ := unstructured.NestedString(cur, rec.field...)
			if !ok || val == "" {
				continue
			}
			live, err := liveNamed(ctx, lister, rec, k.NN.Namespace, val)
			if err != nil {
				c.trace.failOn(InvariantRecordLive, failDetail{object: k.String(), fields: []string{strings.Join(rec.field, ".")}}, fmt.Sprintf("%s: %s: %v", k, strings.Join(rec.field, "."), err))
				return
			}
			if !live {
				what := "uid"
				if rec.byName {
					what = "name"
				}
				c.trace.failOn(InvariantRecordLive, failDetail{object: k.String(), fields: []string{strings.Join(rec.field, ".")}}, fmt.Sprintf("%s: %s records the %s %s %q, and no live %s has it in a steady state",
					k, strings.Join(rec.field, "."), rec.kind.Kind, what, val, rec.kind.Kind))
				return
			}
		}
	}
}

// liveNamed reports that the server, as lister Lists it, holds a live
// object of rec's kind in namespace whose name or UID is val.
func liveNamed(ctx context.Context, lister client.Reader, rec record, namespace, val string) (bool, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(rec.kind.GroupVersion().WithKind(rec.kind.Kind + "List"))
	if err := lister.List(ctx, list, client.InNamespace(namespace)); err != nil {
		return false, fmt.Errorf("listing %s in %q: %w", rec.kind.Kind, namespace, err)
	}
	for _, it := range list.Items {
		if it.GetDeletionTimestamp() != nil {
			continue
		}
		if (rec.byName && it.GetName() == val) || (!rec.byName && string(it.GetUID()) == val) {
			return true, nil
		}
	}
	return false, nil
}
