package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Record is a field of kind Of that records an object of kind Kind, by
// UID or, ByName, by name (the explorer's Scenario.Records, resolved);
// Field is its path.
type Record struct {
	Of, Kind schema.GroupVersionKind
	Field    []string
	ByName   bool
}

// RecordLive judges a steady state: a Record field of records names a
// live object, as lister Lists the server (at least as new as the
// schedule's writes of the kind).
func RecordLive(ctx context.Context, b *book.Book, records []Record, lister client.Reader) (Failure, bool) {
	for _, rec := range records {
		for _, k := range b.Keys() {
			h := b.History(k)
			cur := h.Versions[h.Newest()]
			if k.GVK != rec.Of || cur == nil {
				continue
			}
			val, ok, _ := unstructured.NestedString(cur, rec.Field...)
			if !ok || val == "" {
				continue
			}
			field := strings.Join(rec.Field, ".")
			live, err := liveNamed(ctx, lister, rec, k.NN.Namespace, val)
			if err != nil {
				return Failure{Object: k.String(), Fields: []string{field}, Message: fmt.Sprintf("%s: %s: %v", k, field, err)}, true
			}
			if !live {
				what := "uid"
				if rec.ByName {
					what = "name"
				}
				return Failure{Object: k.String(), Fields: []string{field}, Message: fmt.Sprintf("%s: %s records the %s %s %q, and no live %s has it in a steady state",
					k, field, rec.Kind.Kind, what, val, rec.Kind.Kind)}, true
			}
		}
	}
	return Failure{}, false
}

// liveNamed reports that the server, as lister Lists it, holds a live
// object of rec's kind in namespace whose name or UID is val.
func liveNamed(ctx context.Context, lister client.Reader, rec Record, namespace, val string) (bool, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(rec.Kind.GroupVersion().WithKind(rec.Kind.Kind + "List"))
	if err := lister.List(ctx, list, client.InNamespace(namespace)); err != nil {
		return false, fmt.Errorf("listing %s in %q: %w", rec.Kind.Kind, namespace, err)
	}
	for _, it := range list.Items {
		if it.GetDeletionTimestamp() != nil {
			continue
		}
		if (rec.ByName && it.GetName() == val) || (!rec.ByName && string(it.GetUID()) == val) {
			return true, nil
		}
	}
	return false, nil
}
