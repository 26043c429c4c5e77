package explore

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

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

// builtinInvariants are the invariants Options.Disable may name.
var builtinInvariants = []string{
	InvariantLostWrite, InvariantObservedGeneration, InvariantObservedGenerationStuck,
	InvariantConverges, InvariantOwnDelete, InvariantErrorLoop, InvariantRecordLive,
	InvariantDeletedStaysDeleted, InvariantStuckFinalizer,
}

func (ex *explorer) validateBuiltin() error {
	ex.disabled = map[string]bool{}
	for _, name := range ex.o.Disable {
		found := false
		for _, b := range builtinInvariants {
			found = found || b == name
		}
		if !found {
			return fmt.Errorf("explore: Options.Disable: %q is not a built-in invariant (one of %q)", name, builtinInvariants)
		}
		ex.disabled[name] = true
	}
	ex.uncached = map[schema.GroupVersionKind]bool{}
	for i, o := range ex.o.Uncached {
		if o == nil {
			return fmt.Errorf("explore: Options.Uncached[%d] is nil", i)
		}
		gvk, err := apiutil.GVKForObject(o, ex.o.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Options.Uncached[%d]: %w", i, err)
		}
		ex.uncached[gvk] = true
	}
	if m := ex.s.Manager; m != nil && m.Client.Cache != nil {
		ex.cacheUnstructured = m.Client.Cache.Unstructured
		for i, o := range m.Client.Cache.DisableFor {
			if o == nil {
				return fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d] is nil", i)
			}
			gvk, err := apiutil.GVKForObject(o, ex.o.Backend.scheme())
			if err != nil {
				return fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d]: %w", i, err)
			}
			ex.uncached[gvk] = true
		}
	}
	ex.ogKinds = map[schema.GroupVersionKind]bool{}
	for i, rc := range ex.s.Reconcilers {
		if hasObservedGeneration(rc.For) {
			ex.ogKinds[ex.forKinds[i]] = true
		}
	}
	for i, rec := range ex.s.Records {
		if rec.Of == nil || rec.Kind == nil || rec.Field == "" {
			return fmt.Errorf("explore: Scenario.Records[%d]: Of, Field and Kind must be set", i)
		}
		of, err := apiutil.GVKForObject(rec.Of, ex.o.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		kind, err := apiutil.GVKForObject(rec.Kind, ex.o.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		ex.records = append(ex.records, record{of: of, kind: kind, field: strings.Split(rec.Field, "."), byName: rec.ByName})
	}
	return nil
}

// hasObservedGeneration reports whether obj's Go type has a
// status.observedGeneration field: then an object of that kind without one
// has observed generation 0.
func hasObservedGeneration(obj client.Object) bool {
	t := reflect.TypeOf(obj)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return false
	}
	st, ok := t.FieldByName("Status")
	if !ok {
		return false
	}
	s := st.Type
	for s.Kind() == reflect.Pointer {
		s = s.Elem()
	}
	if s.Kind() != reflect.Struct {
		return false
	}
	for i := 0; i < s.NumField(); i++ {
		if name, _, _ := strings.Cut(s.Field(i).Tag.Get("json"), ","); name == "observedGeneration" {
			return true
		}
	}
	return false
}

func shortUID(uid types.UID) string {
	if len(uid) > 8 {
		return string(uid[:8])
	}
	return string(uid)
}

// checkErrorLoop fails when a reconcile of the steady round (fresh reads,
// nothing written) returned an error: nothing will change, so it fails
// forever. An action that failed is not retried (each runs once).
func (t *trace) checkErrorLoop(round []Step) {
	for _, s := range round {
		if strings.HasPrefix(s.Reconciler, "action ") {
			continue
		}
		if msg, ok := strings.CutPrefix(s.Result, "error: "); ok {
			t.fail(InvariantErrorLoop, fmt.Sprintf("step %d (%s reconciles %s) returns an error in a steady state, so it is retried forever: %s",
				s.Index, s.Reconciler, s.Object, msg))
			return
		}
	}
}

// checkRecords fails when, in a steady state, a Record field of records
// names no live object.
func (b *versions) checkRecords(ctx context.Context, records []record) {
	for _, rec := range records {
		for _, k := range b.order {
			h := b.hist[k]
			cur := h.versions[h.newest()]
			if k.gvk != rec.of || cur == nil {
				continue
			}
			val, ok, _ := unstructured.NestedString(cur, rec.field...)
			if !ok || val == "" {
				continue
			}
			live, err := b.liveNamed(ctx, rec, k.nn.Namespace, val)
			if err != nil {
				b.trace.fail(InvariantRecordLive, fmt.Sprintf("%s: %s: %v", k, strings.Join(rec.field, "."), err))
				return
			}
			if !live {
				what := "uid"
				if rec.byName {
					what = "name"
				}
				b.trace.fail(InvariantRecordLive, fmt.Sprintf("%s: %s records the %s %s %q, and no live %s has it in a steady state",
					k, strings.Join(rec.field, "."), rec.kind.Kind, what, val, rec.kind.Kind))
				return
			}
		}
	}
}

// liveNamed reports that the server holds a live object of rec's kind in
// namespace whose name or UID is val.
func (b *versions) liveNamed(ctx context.Context, rec record, namespace, val string) (bool, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(rec.kind.GroupVersion().WithKind(rec.kind.Kind + "List"))
	if err := b.server.List(ctx, list, client.InNamespace(namespace)); err != nil {
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
