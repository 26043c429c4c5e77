// Package revutil reads objects the way lws's revision package does:
// encoded with unstructured.UnstructuredJSONScheme and patched with their
// type as the schema (strategicpatch.StrategicMergePatch). Its facts
// (ParamsFact) say which parameters change at most the status.
package revutil

import (
	"bytes"

	v1 "example.com/op/api/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// Matches reads g: encoding/json meets no method of Gadget's that may
// change it.
func Matches(g *v1.Gadget, rev []byte) bool { // want Matches:`^statusOnly\[0\]$`
	var b bytes.Buffer
	if err := unstructured.UnstructuredJSONScheme.Encode(g, &b); err != nil {
		return false
	}
	patched, err := strategicpatch.StrategicMergePatch(b.Bytes(), rev, g)
	return err == nil && bytes.Equal(patched, rev)
}

// WidgetMatches: a Widget holds a Hooked, whose MarshalJSON has a pointer
// receiver and may change it: no fact.
func WidgetMatches(w *v1.Widget) bool { // want WidgetMatches:"why"
	var b bytes.Buffer
	return unstructured.UnstructuredJSONScheme.Encode(w, &b) == nil
}

// EncodeWith encodes g with a codec it is given, which may be any: no fact.
func EncodeWith(enc runtime.Encoder, g *v1.Gadget) bool { // want EncodeWith:"why"
	var b bytes.Buffer
	return enc.Encode(g, &b) == nil
}

// Unnamed takes a Gadget and a slice it does not name: unused, so the
// Gadget changes at most its status and the slice is only read.
func Unnamed(*v1.Gadget, []byte) bool { // want Unnamed:`^statusOnly\[0\] readOnly\[1\]$`
	return true
}
