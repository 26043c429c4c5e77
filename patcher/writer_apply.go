package patcher

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// Apply mode (docs/apply.md): Flush sends the status as a server-side
// apply under the field owner, with forced ownership, instead of a JSON
// merge patch. The files: applymode.go (the options), writer_apply.go
// (the request, duplicate keys, and WriteApply's writer),
// internal/apply (which fields it holds, +listType=set lists, the
// no-lock rebase), writer_apply_unlocked.go (WriteApplyWithoutLock's
// writer, built on a fresh read), applystatus.go (ApplyStatus) and
// writer_apply_stored.go (what the server stored).

// applier is apply mode's state and what its two writers share.
type applier[T client.Object] struct {
	p              *Patcher[T]
	keys           map[string][]string // list-map keys by dotted path
	conditionPaths map[string]bool     // the []metav1.Condition lists
}

// lockedApply is WriteApply's writer (writer.go): the apply carries the
// base's resourceVersion.
type lockedApply[T client.Object] struct{ *applier[T] }

func (lockedApply[T]) locked() bool { return true }

// applyState is the apply mode state of the writer (ApplyStatus's).
func (a *applier[T]) applyState() *applier[T] { return a }

// options: the field owner, with forced ownership.
func (a *applier[T]) options() []client.SubResourcePatchOption {
	return []client.SubResourcePatchOption{client.FieldOwner(a.p.opts.fieldOwner), client.ForceOwnership}
}

// settleWrite: an Apply's entry, and what the apply holds.
func (a *applier[T]) settleWrite(w *sentWrite[T]) (settle.Write, error) {
	return a.p.settler.settleWrite(w, metav1.ManagedFieldsOperationApply, func(sw *settle.Write) error {
		sw.FromApply(w.applied, a.keys, apply.SetLists(w.base.GetManagedFields()))
		return nil
	})
}

// ensureManagedFields gives the base the managedFields an apply needs when
// it came without them (a cache with cache.TransformStripManagedFields, as
// many operators set): the object is read through the API reader (the
// client without one). A read at the base's resourceVersion lends its
// managedFields to the base. A newer read is a Conflict under the lock
// (the apply would get a 409: Retry re-reads) and lends its managedFields
// without the lock, where ownership is the server's present one anyway. A
// read without managedFields leaves the base as it was, and owners says so.
func (a *applier[T]) ensureManagedFields(ctx context.Context) error {
	p := a.p
	if len(p.base.GetManagedFields()) > 0 {
		return nil
	}
	fresh, err := p.read(ctx)
	if err != nil {
		return err
	}
	if fresh.GetResourceVersion() != p.base.GetResourceVersion() && p.writer.locked() {
		return p.conflict(fmt.Sprintf("the object came without metadata.managedFields and has changed since it was read "+
			"(resourceVersion %s, now %s)", p.base.GetResourceVersion(), fresh.GetResourceVersion()))
	}
	p.base.SetManagedFields(fresh.GetManagedFields())
	return nil
}

// owners decodes the base's managedFields.
func (a *applier[T]) owners() (apply.Owners, error) { return a.ownersIn(a.p.base) }

// ownersIn decodes obj's managedFields. An object without any was read
// through something that strips them (a cache transform): without them an
// apply would drop every field this manager owns and did not change.
func (a *applier[T]) ownersIn(obj T) (apply.Owners, error) {
	p := a.p
	mfs := obj.GetManagedFields()
	if len(mfs) == 0 {
		return apply.Owners{}, fmt.Errorf("statuspatch: %s: apply mode needs the object's metadata.managedFields to know which status fields "+
			"%q owns, and the object has none, nor has it as read again through %s (a cache that strips them, such as cache.TransformStripManagedFields? "+
			"give the patcher an API reader: patcher.ForManager or WithAPIReader): %w",
			p.id(), p.opts.fieldOwner, readerName(p.opts.apiReader), ErrInvalidInput)
	}
	own, err := apply.OwnersOf(mfs, p.opts.fieldOwner)
	if err != nil {
		return own, fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	return own, nil
}

// write is the mutation route's apply: the fields this manager owns and
// the fields changed since the base, with their in-memory values. cur is
// the status as JSON, or nil.
func (a lockedApply[T]) write(ctx context.Context, cur []byte) (*sentWrite[T], error) {
	if err := a.ensureManagedFields(ctx); err != nil {
		return nil, err
	}
	p := a.p
	own, err := a.owners()
	if err != nil {
		return nil, err
	}
	if cur == nil {
		if cur, err = json.Marshal(p.status(p.obj)); err != nil {
			return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
		}
	}
	base, err := p.baseStatus()
	if err != nil {
		return nil, err
	}
	b := &apply.Fields{Own: own, Keys: a.keys, SetLists: apply.SetLists(p.base.GetManagedFields())}
	baseMap := decodeStatus(base)
	return a.build(b, decodeStatus(cur), baseMap)
}

// build is the apply of the status cur over base (decoded JSON).
func (a *applier[T]) build(b *apply.Fields, cur, base map[string]any) (*sentWrite[T], error) {
	status := b.Status(cur, base)
	if err := a.keyedError(b, ""); err != nil {
		return nil, err
	}
	if len(b.Blocked) > 0 {
		slices.Sort(b.Blocked)
		return nil, &ApplyCannotRemoveError{Object: a.p.id(), Fields: b.Blocked}
	}
	w, err := a.body(status)
	if w != nil {
		w.unowned = b.Unowned
	}
	return w, err
}

// decodeStatus decodes a status's JSON; null (a nil status pointer) is an
// empty object.
func decodeStatus(b []byte) map[string]any {
	m, err := decodeObject(b)
	if err != nil || m == nil {
		return map[string]any{}
	}
	return m
}

// decodeJSON and decodeObject decode with exact numbers (json.Number):
// one decoder serves the patcher and its settling.
var (
	decodeJSON   = settle.DecodeJSON
	decodeObject = settle.Decode
)

// body is the apply request for status: the object's identity, the
// base's resourceVersion when the writer carries the lock, and status.
func (a *applier[T]) body(status map[string]any) (*sentWrite[T], error) {
	p := a.p
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: the apply needs the object's apiVersion and kind: %w", p.id(), err)
	}
	md := map[string]any{"name": p.obj.GetName()}
	if ns := p.obj.GetNamespace(); ns != "" {
		md["namespace"] = ns
	}
	if p.writer.locked() {
		rv := p.base.GetResourceVersion()
		if rv == "" {
			return nil, fmt.Errorf("statuspatch: %s: object has no resourceVersion: it was not read from the API server", p.id())
		}
		md["resourceVersion"] = rv
	}
	apiVersion, kind := gvk.ToAPIVersionAndKind()
	body, err := json.Marshal(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md, "status": status})
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal apply: %w", p.id(), err)
	}
	return &sentWrite[T]{base: p.base, patchType: types.ApplyPatchType, body: body, applied: status}, nil
}

// keyedError is the refusal of list items the server would refuse: items
// without their keys, or two items with one key or value (two conditions
// of one type are ErrInvalidCondition). what prefixes the message.
func (a *applier[T]) keyedError(b *apply.Fields, what string) error {
	p := a.p
	var conds, others []string
	for _, d := range b.Dups {
		if a.conditionPaths[d.List] {
			conds = append(conds, d.Item+": Duplicate value: two conditions of one type")
		} else {
			others = append(others, d.Item)
		}
	}
	switch {
	case len(conds) > 0:
		return &InvalidConditionError{Object: p.id(), Problems: conds}
	case len(others) > 0:
		return fmt.Errorf("statuspatch: %s: %slist items with the same key, which the server refuses: %s: %w", p.id(), what, strings.Join(others, ", "), ErrInvalidInput)
	case len(b.Errs) > 0:
		return fmt.Errorf("statuspatch: %s: %skeyed list items without their keys: %s: %w", p.id(), what, strings.Join(b.Errs, "; "), ErrInvalidInput)
	}
	return nil
}
