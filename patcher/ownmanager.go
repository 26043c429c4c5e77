package patcher

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"reflect"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// Settling tells this writer's write from another's by the managedFields
// entry it stamps, so it must know the entry's manager. With a field owner
// that is the owner. Without one the server names the manager after the
// client's user agent, which the patcher cannot see: it asks the server,
// once per client, with a server-side dry run of a change only this
// request makes (a probe annotation on the object, dryRun=All: nothing is
// stored, admission runs as for a dry run), and reads the manager the
// server stamped for it. Guessing (the binary's name, as client-go's
// default user agent starts) would be wrong for a client with its own
// user agent, and a wrong name makes this writer's own stamp look like
// another writer's: a false Conflict.

// probeAnnotation is the annotation the dry run sets.
const probeAnnotation = "statuspatch.dev/manager-probe"

// learnedManagers are the managers the server named for clients without
// a field owner, keyed by the client (comparable clients only).
var learnedManagers sync.Map

// ownManager is the field manager the server records for this patcher's
// writes: its field owner, else the one learned for its client (a dry
// run the first time); "" when the server cannot say (a refused dry run,
// a client that keeps no managedFields, such as a fake one).
func (st *settler[T]) ownManager(ctx context.Context) string {
	p := st.p
	if p.opts.fieldOwner != "" {
		return p.opts.fieldOwner
	}
	key := any(p.client)
	if key == nil || !reflect.ValueOf(key).Comparable() {
		return st.probeManager(ctx)
	}
	if m, ok := learnedManagers.Load(key); ok {
		return m.(string)
	}
	m := st.probeManager(ctx)
	if settle.RealManager(m) {
		learnedManagers.Store(key, m)
	}
	return m
}

// probeManager makes the dry run and returns the manager of the Update
// entry that owns the probe annotation.
func (st *settler[T]) probeManager(ctx context.Context) string {
	p := st.p
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return ""
	}
	value := hex.EncodeToString(nonce[:])
	probe := p.newObject()
	probe.SetName(p.obj.GetName())
	probe.SetNamespace(p.obj.GetNamespace())
	body := []byte(`{"metadata":{"annotations":{"` + probeAnnotation + `":"` + value + `"}}}`)
	if err := p.client.Patch(ctx, probe, client.RawPatch(types.MergePatchType, body), client.DryRunAll); err != nil {
		return ""
	}
	if probe.GetAnnotations()[probeAnnotation] != value {
		return "" // not the dry run's answer
	}
	want := fieldpath.MakePathOrDie("metadata", "annotations", probeAnnotation)
	for _, e := range probe.GetManagedFields() {
		if e.Operation != metav1.ManagedFieldsOperationUpdate || e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		s := &fieldpath.Set{}
		if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err == nil && s.Has(want) {
			if !settle.RealManager(e.Manager) {
				// The dry run went through the same field manager, cap of
				// ten Update entries included: on a busy object the
				// probe's own entry is merged into "ancient-changes",
				// which names no writer. Not known, and not cached.
				return ""
			}
			return e.Manager
		}
	}
	return ""
}
