package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

func (st *setupState) validateBuiltin(opts Options) error {
	if err := st.validateDisable(opts); err != nil {
		return err
	}
	st.uncached = map[schema.GroupVersionKind]bool{}
	for i, o := range opts.Uncached {
		if o == nil {
			return fmt.Errorf("explore: Options.Uncached[%d] is nil", i)
		}
		gvk, err := apiutil.GVKForObject(o, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Options.Uncached[%d]: %w", i, err)
		}
		st.uncached[gvk] = true
	}
	if m := st.s.Manager; m != nil && m.Client.Cache != nil {
		st.cacheUnstructured = m.Client.Cache.Unstructured
		for i, o := range m.Client.Cache.DisableFor {
			if o == nil {
				return fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d] is nil", i)
			}
			gvk, err := apiutil.GVKForObject(o, opts.Backend.scheme())
			if err != nil {
				return fmt.Errorf("explore: Scenario.Manager.Client.Cache.DisableFor[%d]: %w", i, err)
			}
			st.uncached[gvk] = true
		}
	}
	st.ogKinds = map[schema.GroupVersionKind]bool{}
	for i, rc := range st.s.Reconcilers {
		if judge.HasObservedGeneration(rc.For) {
			st.ogKinds[st.forKinds[i]] = true
		}
	}
	for i, rec := range st.s.Records {
		if rec.Of == nil || rec.Kind == nil || rec.Field == "" {
			return fmt.Errorf("explore: Scenario.Records[%d]: Of, Field and Kind must be set", i)
		}
		of, err := apiutil.GVKForObject(rec.Of, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		kind, err := apiutil.GVKForObject(rec.Kind, opts.Backend.scheme())
		if err != nil {
			return fmt.Errorf("explore: Scenario.Records[%d]: %w", i, err)
		}
		st.records = append(st.records, judge.Record{Of: of, Kind: kind, Field: strings.Split(rec.Field, "."), ByName: rec.ByName})
	}
	return nil
}
