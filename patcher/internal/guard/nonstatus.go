package guard

import (
	"maps"
	"reflect"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

var (
	objectMetaType = reflect.TypeOf(metav1.ObjectMeta{})
	typeMetaType   = reflect.TypeOf(metav1.TypeMeta{})
)

// NonStatusChanges lists the fields, as JSON paths, where the object obj
// differs from ref (the base, or the state the caller's own write produced)
// outside status: the writes a status patch would drop. obj and ref are
// pointers to objects of one struct type; status is the address of obj's
// status field. It compares with reflect.DeepEqual field by field and
// allocates nothing when nothing changed.
func NonStatusChanges(obj, ref, status any) []string {
	cur := reflect.ValueOf(obj).Elem()
	base := reflect.ValueOf(ref).Elem()
	statusAddr := reflect.ValueOf(status).UnsafePointer()
	var fields []string
	for i := 0; i < cur.NumField(); i++ {
		f := cur.Type().Field(i)
		cv, bv := cur.Field(i), base.Field(i)
		switch {
		case !f.IsExported(), f.Type == typeMetaType:
			continue
		case cv.CanAddr() && cv.Addr().UnsafePointer() == statusAddr:
			continue
		case f.Type == objectMetaType:
			fields = append(fields, metaChanges(cv.Addr().Interface().(*metav1.ObjectMeta), bv.Addr().Interface().(*metav1.ObjectMeta))...)
		case !reflect.DeepEqual(cv.Addr().Interface(), bv.Addr().Interface()):
			fields = append(fields, wire.JSONName(f))
		}
	}
	return fields
}

// metaChanges compares the metadata a status write would drop. Server-owned
// fields (resourceVersion, generation, managedFields) are not compared, and a
// nil map or list equals an empty one, as it does once serialised.
func metaChanges(cur, base *metav1.ObjectMeta) []string {
	var fields []string
	if cur.Name != base.Name {
		fields = append(fields, "metadata.name")
	}
	if cur.Namespace != base.Namespace {
		fields = append(fields, "metadata.namespace")
	}
	if !maps.Equal(cur.Labels, base.Labels) {
		fields = append(fields, "metadata.labels")
	}
	if !maps.Equal(cur.Annotations, base.Annotations) {
		fields = append(fields, "metadata.annotations")
	}
	if !slices.Equal(cur.Finalizers, base.Finalizers) {
		fields = append(fields, "metadata.finalizers")
	}
	if len(cur.OwnerReferences)+len(base.OwnerReferences) > 0 && !reflect.DeepEqual(cur.OwnerReferences, base.OwnerReferences) {
		fields = append(fields, "metadata.ownerReferences")
	}
	return fields
}
