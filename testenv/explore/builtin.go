package explore

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

func (ex *explorer) validateBuiltin() error {
	if err := ex.validateDisable(); err != nil {
		return err
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

func shortUID(uid types.UID) string {
	if len(uid) > 8 {
		return string(uid[:8])
	}
	return string(uid)
}
