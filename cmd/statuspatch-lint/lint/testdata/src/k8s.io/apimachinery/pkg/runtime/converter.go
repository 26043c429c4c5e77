package runtime

// UnstructuredConverter converts a typed object to and from a map
// (apimachinery's runtime/converter.go).
type UnstructuredConverter interface {
	ToUnstructured(obj interface{}) (map[string]interface{}, error)
}

type unstructuredConverter struct{}

func (c *unstructuredConverter) ToUnstructured(obj interface{}) (map[string]interface{}, error) {
	return map[string]interface{}{}, nil
}

// DefaultUnstructuredConverter is apimachinery's converter.
var DefaultUnstructuredConverter = &unstructuredConverter{}
