package patcher

import (
	"context"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// merger is merge mode's writer (writer.go): a JSON merge patch of the
// status difference since the base (a JSON Patch when a null must be
// stored), carrying the base's resourceVersion.
type merger[T client.Object] struct{ p *Patcher[T] }

func (m merger[T]) write(ctx context.Context, cur []byte) (*sentWrite[T], error) {
	p := m.p
	patchType, body, err := m.body(ctx, cur)
	if err != nil {
		return nil, err
	}
	return &sentWrite[T]{base: p.base, patchType: patchType, body: body, cur: cur}, nil
}

// stored also reports a divergence from what was sent (w.cur, the status
// as JSON, or nil).
func (m merger[T]) stored(ctx context.Context, scratch T, w *sentWrite[T]) (flushResult, error) {
	p, cur := m.p, w.cur
	// What the server stored equals what was written in the common case:
	// the generated diff's typed comparison settles that without
	// marshalling the status (equal JSON is no divergence either), else
	// a DeepEqual.
	p.tracker.wrote(scratch)
	same, ok := p.fieldDiff.equal(p.obj, scratch)
	if !ok {
		same = reflect.DeepEqual(p.status(p.obj), p.status(scratch))
	}
	var sentErr error
	if !same {
		cur, sentErr = m.sentStatus(cur)
	}
	p.replaceObject(scratch)
	p.setBase(p.obj)
	if same || sentErr != nil {
		return resultApplied, sentErr
	}
	ds, err := m.divergence(cur)
	if err != nil || len(ds) == 0 {
		return resultApplied, err
	}
	return resultApplied, p.reportDivergence(ctx, ds)
}

// locked: every merge-mode write carries the base's resourceVersion.
func (merger[T]) locked() bool { return true }

// options name the field owner, when there is one.
func (m merger[T]) options() []client.SubResourcePatchOption {
	if m.p.opts.fieldOwner == "" {
		return nil
	}
	return []client.SubResourcePatchOption{client.FieldOwner(m.p.opts.fieldOwner)}
}

// settleWrite: an Update's entry, and what the patch sets and removes.
func (m merger[T]) settleWrite(w *sentWrite[T]) (settle.Write, error) {
	return m.p.settler.settleWrite(w, metav1.ManagedFieldsOperationUpdate, func(sw *settle.Write) error {
		if w.patchType == types.JSONPatchType {
			return sw.FromJSONPatch(w.body)
		}
		return sw.FromMergePatch(w.body)
	})
}

// body is the status write Flush sends: the generated diff's merge patch
// (cur is nil: it never carries null), or the reflection path's write, a
// merge patch or, when a null must be stored, a JSON Patch.
func (m merger[T]) body(ctx context.Context, cur []byte) (types.PatchType, []byte, error) {
	p := m.p
	rv := p.base.GetResourceVersion()
	if cur == nil {
		patch, err := p.statusPatch(cur)
		if err != nil {
			return "", nil, err
		}
		body, err := diff.PatchBody(rv, patch)
		if err != nil {
			return "", nil, fmt.Errorf("statuspatch: %s: %w", p.id(), err)
		}
		return types.MergePatchType, body, nil
	}
	base, err := p.baseStatus()
	if err != nil {
		return "", nil, err
	}
	var readErr error // the re-read's, already naming the object
	patchType, body, err := diff.StatusWrite(rv, base, cur, p.baseStatusZero(), func() (present bool, err error) {
		present, readErr = m.serverHasStatus(ctx)
		return present, readErr
	})
	if readErr != nil {
		return "", nil, readErr
	}
	if err != nil {
		return "", nil, fmt.Errorf("statuspatch: %s: %w", p.id(), err)
	}
	return patchType, body, nil
}
