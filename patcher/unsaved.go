package patcher

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/guard"
	"github.com/statuspatch/statuspatch/patcher/internal/history"
	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// unsavedAfterOwnWrite names the fields outside status that the caller
// changed in memory after its own write of the object (an r.Update or
// r.Patch that gave the object the resourceVersion it carries), given a
// fresh read. They are compared with the state that write produced:
//
//   - fresh itself, when it is still at the object's resourceVersion;
//   - when another writer came after, that exact version, listed through
//     the API reader (resourceVersionMatch=Exact, within etcd's compaction
//     window);
//   - when that list is not possible (a cache, a compacted version), a
//     field counts when the object differs in it from both the base and
//     fresh (guard.UnsavedVsBoth).
//
// A fresh read older than the object (a lagging cache) tells nothing: no
// fields, and the re-base is a Conflict.
func (p *Patcher[T]) unsavedAfterOwnWrite(ctx context.Context, fresh T) []string {
	objRV, freshRV := p.obj.GetResourceVersion(), fresh.GetResourceVersion()
	if freshRV == objRV {
		return p.nonStatusChanges(fresh)
	}
	if cmp, err := wire.CompareResourceVersions(freshRV, objRV); err != nil || cmp < 0 {
		return nil
	}
	if written, ok := p.settler.readExact(ctx, objRV); ok {
		return p.nonStatusChanges(written)
	}
	vsBase := p.nonStatusChanges(p.base)
	if len(vsBase) == 0 {
		return nil
	}
	return guard.UnsavedVsBoth(vsBase, p.nonStatusChanges(fresh), p.obj, p.base, fresh)
}

// readExact returns the object as it was at resourceVersion rv, listed
// through the API reader (history.At) into the scheme's typed list of its
// kind; ok is false when the reader cannot serve it (a cache, a version
// etcd compacted away, a kind without a registered list type).
func (st *settler[T]) readExact(ctx context.Context, rv string) (T, bool) {
	p := st.p
	var zero T
	src, err := st.historySource()
	if err != nil {
		return zero, false
	}
	gvk := src.GVK
	gvk.Kind += "List"
	o, err := p.client.Scheme().New(gvk)
	if err != nil {
		return zero, false
	}
	list, ok := o.(client.ObjectList)
	if !ok {
		return zero, false
	}
	d, found, err := history.At(ctx, src, list, rv)
	if err != nil || !found || d.ResourceVersion != rv {
		return zero, false
	}
	// The typed item as the server sent it, not re-encoded through d.JSON:
	// a round trip drops empty omitempty maps and lists and canonicalises
	// quantities, which the comparison with the caller's object (decoded
	// from the server's answer) would take for changes.
	items, err := meta.ExtractList(list)
	if err != nil {
		return zero, false
	}
	for _, item := range items {
		if obj, ok := item.(T); ok && obj.GetName() == p.obj.GetName() && obj.GetResourceVersion() == rv {
			return obj, true
		}
	}
	return zero, false
}
