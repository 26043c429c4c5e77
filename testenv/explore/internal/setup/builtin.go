package setup

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"
)

// Uncached are the kinds the manager reads uncached: those of
// Options.Uncached (uncached) and of m's Client.Cache.DisableFor; and
// whether m caches unstructured objects (Client.Cache.Unstructured; nil
// m: no), as controller-runtime's client decides.
func Uncached(scheme *runtime.Scheme, uncached []client.Object, m *manager.Options) (kinds map[schema.GroupVersionKind]bool, unstructured bool, err error) {
	kinds = map[schema.GroupVersionKind]bool{}
	for i, o := range uncached {
		if o == nil {
			return nil, false, fmt.Errorf("explore: Options.Uncached[%d] is nil", i)
		}
		gvk, err := apiutil.GVKForObject(o, scheme)
		if err != nil {
			return nil, false, fmt.Errorf("explore: Options.Uncached[%d]: %w", i, err)
		}
		kinds[gvk] = true
	}
	if m != nil && m.Client.Cache != nil {
		unstructured = m.Client.Cache.Unstructured
		for i, o := range m.Client.Cache.DisableFor {
			if o == nil {
				return nil, false, fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d] is nil", i)
			}
			gvk, err := apiutil.GVKForObject(o, scheme)
			if err != nil {
				return nil, false, fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d]: %w", i, err)
			}
			kinds[gvk] = true
		}
	}
	return kinds, unstructured, nil
}

// ObservedGeneration are the For kinds (fors, of kinds fors' GVKs, by
// index) whose Go type has status.observedGeneration.
func ObservedGeneration(fors []client.Object, kinds []schema.GroupVersionKind) map[schema.GroupVersionKind]bool {
	og := map[schema.GroupVersionKind]bool{}
	for i, o := range fors {
		if judge.HasObservedGeneration(o) {
			og[kinds[i]] = true
		}
	}
	return og
}

// A Record is what Records reads of a Scenario.Records entry.
type Record struct {
	Of, Kind client.Object
	Field    string
	ByName   bool
}

// Records are recs as the record invariant reads them (judge.Record).
func Records(scheme *runtime.Scheme, recs []Record) ([]judge.Record, error) {
	var out []judge.Record
	for i, rec := range recs {
		if rec.Of == nil || rec.Kind == nil || rec.Field == "" {
			return nil, fmt.Errorf("explore: Scenario.Records[%d]: Of, Field and Kind must be set", i)
		}
		of, err := apiutil.GVKForObject(rec.Of, scheme)
		if err != nil {
			return nil, fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		kind, err := apiutil.GVKForObject(rec.Kind, scheme)
		if err != nil {
			return nil, fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		out = append(out, judge.Record{Of: of, Kind: kind, Field: strings.Split(rec.Field, "."), ByName: rec.ByName})
	}
	return out, nil
}
