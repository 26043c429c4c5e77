package patchertest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/watch"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// copyInto sets *dst to a deep copy of *src; both must be the same type.
func copyInto(src, dst client.Object) error {
	cp := src.DeepCopyObject()
	sv, dv := reflect.ValueOf(cp), reflect.ValueOf(dst)
	if sv.Type() != dv.Type() || dv.Kind() != reflect.Pointer || dv.IsNil() {
		return fmt.Errorf("patchertest: cannot copy %T into %T", src, dst)
	}
	dv.Elem().Set(sv.Elem())
	return nil
}

func marshal(obj client.Object) ([]byte, error) { return json.Marshal(obj) }

// withWatch adapts a client.Client to the client.WithWatch that
// controller-runtime's interceptor wraps; Watch is not supported unless c
// already supports it.
func withWatch(c client.Client) client.WithWatch {
	if w, ok := c.(client.WithWatch); ok {
		return w
	}
	return noWatch{c}
}

type noWatch struct{ client.Client }

func (n noWatch) Watch(context.Context, client.ObjectList, ...client.ListOption) (watch.Interface, error) {
	return nil, fmt.Errorf("patchertest: the wrapped %T does not support Watch", n.Client)
}
