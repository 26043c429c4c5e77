package v1_test

import (
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/statuspatch/statuspatch/patcher"

	fielddiffv1 "example.com/goldens/api/fielddiff/v1"
)

// The generated equality functions on a recursive type and on a struct
// holding an interface: each change deep inside is sent as the reflection
// path sends it, and an unchanged status sends nothing.
func TestGeneratedDiffRecursiveType(t *testing.T) {
	tree := func() fielddiffv1.TreeStatus {
		return fielddiffv1.TreeStatus{
			Root: &fielddiffv1.Node{Name: "r", Children: []fielddiffv1.Node{
				{Name: "a", Next: &fielddiffv1.Node{Name: "a2"}},
				{Name: "b", Children: []fielddiffv1.Node{{Name: "b1"}}},
			}},
			Forest: map[string][]fielddiffv1.Node{"x": {{Name: "x1", Next: &fielddiffv1.Node{Name: "x2"}}}},
			Raw:    &runtime.RawExtension{Raw: []byte(`{"k":1}`)},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(*fielddiffv1.TreeStatus)
		sends  bool
	}{
		{"nothing", func(*fielddiffv1.TreeStatus) {}, false},
		{"a name two levels down", func(s *fielddiffv1.TreeStatus) { s.Root.Children[1].Children[0].Name = "B1" }, true},
		{"behind a pointer in a child", func(s *fielddiffv1.TreeStatus) { s.Root.Children[0].Next.Name = "A2" }, true},
		{"a child removed", func(s *fielddiffv1.TreeStatus) { s.Root.Children = s.Root.Children[:1] }, true},
		{"inside a map entry", func(s *fielddiffv1.TreeStatus) { s.Forest["x"][0].Next.Name = "X2" }, true},
		{"the raw extension", func(s *fielddiffv1.TreeStatus) { s.Raw.Raw = []byte(`{"k":2}`) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := tree()
			tc.change(&target)
			want := sentTree(t, false, tree(), target)
			got := sentTree(t, true, tree(), target)
			if string(got) != string(want) {
				t.Fatalf("patches differ\nreflection: %s\ngenerated:  %s", want, got)
			}
			if (got != nil) != tc.sends {
				t.Fatalf("sent %s, want a patch: %v", got, tc.sends)
			}
		})
	}
}

// sentTree is what one Flush of a Tree from base to target sends.
func sentTree(t *testing.T, generated bool, base, target fielddiffv1.TreeStatus) []byte {
	t.Helper()
	var bodies [][]byte
	c := bodyClient(t, &bodies)
	obj := &fielddiffv1.Tree{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "t", ResourceVersion: "7"}, Status: base}
	var err error
	if generated {
		gp := fielddiffv1.NewTreeStatusPatcher(c, obj, patcher.WithMetrics(nil))
		obj.Status = target
		err = gp.Flush(ctx)
	} else {
		rp := patcher.New(c, obj, patcher.WithMetrics(nil))
		obj.Status = target
		err = rp.Flush(ctx)
	}
	if err != nil && !errors.Is(err, errRecorded) {
		t.Fatal(err)
	}
	if len(bodies) == 0 {
		return nil
	}
	return bodies[0]
}
