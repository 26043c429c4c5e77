// Package client is a faithful subset of sigs.k8s.io/controller-runtime/pkg/client
// (v0.25.2) for analysistest: same names, same signatures, no behaviour.
package client

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/cache/cacheapi"
)

// Object is an alias, as in the real package.
type Object = cacheapi.Object

type ObjectList interface {
	runtime.Object
}

type ObjectKey = types.NamespacedName

type Patch interface {
	Type() types.PatchType
	Data(obj Object) ([]byte, error)
}

type (
	GetOption               interface{}
	ListOption              interface{}
	CreateOption            interface{}
	DeleteOption            interface{}
	UpdateOption            interface{}
	PatchOption             interface{}
	ApplyOption             interface{}
	DeleteAllOfOption       interface{}
	SubResourceGetOption    interface{}
	SubResourceCreateOption interface{}
	SubResourceUpdateOption interface{}
	SubResourcePatchOption  interface{}
	SubResourceApplyOption  interface{}
)

type Reader interface {
	Get(ctx context.Context, key ObjectKey, obj Object, opts ...GetOption) error
	List(ctx context.Context, list ObjectList, opts ...ListOption) error
}

type Writer interface {
	Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...ApplyOption) error
	Create(ctx context.Context, obj Object, opts ...CreateOption) error
	Delete(ctx context.Context, obj Object, opts ...DeleteOption) error
	Update(ctx context.Context, obj Object, opts ...UpdateOption) error
	Patch(ctx context.Context, obj Object, patch Patch, opts ...PatchOption) error
	DeleteAllOf(ctx context.Context, obj Object, opts ...DeleteAllOfOption) error
}

type StatusClient interface {
	Status() SubResourceWriter
}

type SubResourceClientConstructor interface {
	SubResource(subResource string) SubResourceClient
}

type StatusWriter = SubResourceWriter

type SubResourceReader interface {
	Get(ctx context.Context, obj Object, subResource Object, opts ...SubResourceGetOption) error
}

type SubResourceWriter interface {
	Create(ctx context.Context, obj Object, subResource Object, opts ...SubResourceCreateOption) error
	Update(ctx context.Context, obj Object, opts ...SubResourceUpdateOption) error
	Patch(ctx context.Context, obj Object, patch Patch, opts ...SubResourcePatchOption) error
	Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...SubResourceApplyOption) error
}

type SubResourceClient interface {
	SubResourceReader
	SubResourceWriter
}

type Client interface {
	Reader
	Writer
	StatusClient
	SubResourceClientConstructor

	Scheme() *runtime.Scheme
}

type MergeFromWithOptimisticLock struct{}

func (m MergeFromWithOptimisticLock) ApplyToMergeFrom(in *MergeFromOptions) { in.OptimisticLock = true }

type MergeFromOption interface {
	ApplyToMergeFrom(*MergeFromOptions)
}

type MergeFromOptions struct {
	OptimisticLock bool
}

type patch struct {
	patchType types.PatchType
	data      []byte
}

func (s *patch) Type() types.PatchType           { return s.patchType }
func (s *patch) Data(obj Object) ([]byte, error) { return s.data, nil }

func RawPatch(patchType types.PatchType, data []byte) Patch {
	return &patch{patchType, data}
}

type mergeFromPatch struct {
	patchType types.PatchType
	from      Object
	opts      MergeFromOptions
}

func (s *mergeFromPatch) Type() types.PatchType           { return s.patchType }
func (s *mergeFromPatch) Data(obj Object) ([]byte, error) { return nil, nil }

func MergeFrom(obj Object) Patch {
	return &mergeFromPatch{patchType: types.MergePatchType, from: obj}
}

func MergeFromWithOptions(obj Object, opts ...MergeFromOption) Patch {
	options := &MergeFromOptions{}
	for _, opt := range opts {
		opt.ApplyToMergeFrom(options)
	}
	return &mergeFromPatch{patchType: types.MergePatchType, from: obj, opts: *options}
}

func StrategicMergeFrom(obj Object, opts ...MergeFromOption) Patch {
	options := &MergeFromOptions{}
	for _, opt := range opts {
		opt.ApplyToMergeFrom(options)
	}
	return &mergeFromPatch{patchType: types.StrategicMergePatchType, from: obj, opts: *options}
}

type mergePatch struct{}

func (p mergePatch) Type() types.PatchType           { return types.MergePatchType }
func (p mergePatch) Data(obj Object) ([]byte, error) { return nil, nil }

type applyPatch struct{}

func (p applyPatch) Type() types.PatchType           { return types.ApplyPatchType }
func (p applyPatch) Data(obj Object) ([]byte, error) { return nil, nil }

var (
	// Apply uses server-side apply to patch the given object.
	//
	// Deprecated: Use client.Client.Apply() and client.Client.SubResource("subrsource").Apply() instead.
	Apply Patch = applyPatch{}

	// Merge uses the raw object as a merge patch, without modifications.
	Merge Patch = mergePatch{}
)

// FieldOwner set the field manager name for the given server-side apply patch.
type FieldOwner string

type forceOwnership struct{}

// ForceOwnership indicates that in case of conflicts with server-side apply,
// the client should acquire ownership of the conflicting field.
var ForceOwnership = forceOwnership{}

type dryRunAll struct{}

// DryRunAll sets the "dry run" option to "all", executing all
// validation, etc without persisting the change to storage.
var DryRunAll = dryRunAll{}

func IgnoreNotFound(err error) error { return err }

func ObjectKeyFromObject(obj Object) ObjectKey {
	return ObjectKey{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

type unstructuredApplyConfiguration struct {
	*unstructured.Unstructured
}

func (u *unstructuredApplyConfiguration) IsApplyConfiguration() {}

// ApplyConfigurationFromUnstructured creates a runtime.ApplyConfiguration from an *unstructured.Unstructured object.
func ApplyConfigurationFromUnstructured(u *unstructured.Unstructured) runtime.ApplyConfiguration {
	return &unstructuredApplyConfiguration{Unstructured: u}
}
