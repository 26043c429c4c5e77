package guard

import (
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Without the state the caller's own write produced, a metadata field
// counts only when some key or finalizer differs from both the base and
// the fresh read; other fields count when they differ from both.
func TestUnsavedVsBoth(t *testing.T) {
	meta := func(labels map[string]string, finalizers ...string) *metav1.ObjectMeta {
		return &metav1.ObjectMeta{Labels: labels, Finalizers: finalizers}
	}
	base := meta(map[string]string{"a": "1"}, "f1")
	fresh := meta(map[string]string{"a": "2"}, "f1", "f2") // another writer's changes
	for _, tc := range []struct {
		name            string
		cur             *metav1.ObjectMeta
		vsBase, vsFresh []string
		want            []string
	}{
		{"label as fresh has it", meta(map[string]string{"a": "2"}, "f1"), []string{"metadata.labels"}, nil, []string{}},
		{"label changed from both", meta(map[string]string{"a": "3"}, "f1", "f2"), []string{"metadata.labels"}, []string{"metadata.labels"}, []string{"metadata.labels"}},
		{"label of another key", meta(map[string]string{"a": "2", "b": "1"}, "f1", "f2"), []string{"metadata.labels"}, []string{"metadata.labels"}, []string{"metadata.labels"}},
		{"finalizer as fresh has it", meta(map[string]string{"a": "1"}, "f1", "f2"), []string{"metadata.finalizers"}, []string{"metadata.finalizers", "metadata.labels"}, []string{}},
		{"finalizer removed from both", meta(map[string]string{"a": "1"}), []string{"metadata.finalizers"}, []string{"metadata.finalizers"}, []string{"metadata.finalizers"}},
		{"spec, differing from both", meta(map[string]string{"a": "1"}, "f1"), []string{"spec"}, []string{"spec"}, []string{"spec"}},
		{"nothing vs base", meta(map[string]string{"a": "1"}, "f1"), nil, []string{"spec"}, nil},
	} {
		got := UnsavedVsBoth(slices.Clone(tc.vsBase), tc.vsFresh, tc.cur, base, fresh)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
