package patcher

import (
	"encoding/json"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// settleWrite is w as patcher/internal/settle sees it, for the writer's
// settleWrite: the base, the token, and the managedFields entry the write
// stamps as op, with the apiVersion it is sent with (no manager known
// without a field owner: the server then names the manager after the
// client's user agent, which the patcher cannot see); sent adds what the
// write sets and removes.
func (st *settler[T]) settleWrite(w *sentWrite[T], op metav1.ManagedFieldsOperationType, sent func(sw *settle.Write) error) (settle.Write, error) {
	p := st.p
	base, err := versionOf(w.base)
	if err != nil {
		return settle.Write{}, err
	}
	sw := settle.Write{Base: base, Token: w.settleToken}
	if p.opts.fieldOwner != "" {
		sw.Writer = settle.Writer{Manager: p.opts.fieldOwner, Operation: op, Subresource: "status"}
	}
	// The server keeps an entry per apiVersion: the write's own is the
	// one of the version it is sent with, the patcher's type's. Not
	// known, another version's entry of this manager would pass for it:
	// the outcome is Unknown. (An apply, which names its apiVersion, was
	// not sent without it.)
	gvk, err := p.client.GroupVersionKindFor(p.obj)
	if err != nil {
		return settle.Write{}, fmt.Errorf("statuspatch: %s: the apiVersion the write was sent with, whose managedFields entry it stamps: %w", p.id(), err)
	}
	sw.Writer.APIVersion = gvk.GroupVersion().String()
	if err := sent(&sw); err != nil {
		return settle.Write{}, fmt.Errorf("statuspatch: %s: the sent write: %w", p.id(), err)
	}
	return sw, nil
}

// versionOf is obj as patcher/internal/settle sees it.
func versionOf(obj client.Object) (settle.Version, error) {
	doc, err := json.Marshal(obj)
	if err != nil {
		return settle.Version{}, fmt.Errorf("marshal %s: %w", obj.GetName(), err)
	}
	m, err := settle.Decode(doc)
	if err != nil {
		return settle.Version{}, fmt.Errorf("decode %s: %w", obj.GetName(), err)
	}
	return settle.Version{ResourceVersion: obj.GetResourceVersion(), UID: string(obj.GetUID()), ManagedFields: obj.GetManagedFields(), Object: m}, nil
}
