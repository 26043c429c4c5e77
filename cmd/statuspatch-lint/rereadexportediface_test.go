package main

import (
	"strings"
	"testing"
)

// A caller that reads the object again after its own write with a Get
// -fix leaves a Get (its error ignored, or a NotFound let through), then
// hands it to an exported helper over an interface: the call is given a
// patcher made right before it, over the object as last read or written
// (freshAtCall), not the patcher of its own write, whose base the re-read
// left behind (s111 suspected sharedPatcher's was passed there; it is
// not, and this keeps it so).
func TestFixIgnoredRereadBeforeExportedHelperOverAnInterface(t *testing.T) {
	bin := buildLint(t)
	loop := `	var err error
	for i := 0; i < 3; i++ {
		if err = r.Client.Get(ctx, key, g); err != nil {
			return err
		}
		g.Status.Conditions = append(g.Status.Conditions, g.Status.Conditions...)
		err = r.Client.Status().Update(ctx, g)
		if !apierrors.IsConflict(err) {
			break
		}
	}
	if err != nil {
		return err
	}
`
	for name, reread := range map[string]string{
		"ignored":  "\t_ = r.Client.Get(ctx, key, g)\n",
		"notfound": "\tif err := r.Client.Get(ctx, key, g); err != nil && !apierrors.IsNotFound(err) {\n\t\treturn err\n\t}\n",
	} {
		src := strings.Replace(genericLoopCtrl, loop, reread, 1)
		if name == "ignored" {
			src = strings.Replace(src, "\tapierrors \"k8s.io/apimachinery/pkg/api/errors\"\n", "", 1)
		}
		mod, _ := fixExported(t, bin, genericFiles(src), "internal/conds/conds.go:25: fixed: ", "ctrl/gadget.go:")
		got := readIn(t, mod, "ctrl/gadget.go")
		want := reread + "\tgPatcher2 := wpatch.NewGadgetStatusPatcher(r.Client, g)\n\treturn conds.Set(ctx, gPatcher2.Patcher(), \"Ready\", \"Provisioned\")\n"
		if !strings.Contains(got, want) {
			t.Errorf("%s: the helper is not given a patcher made after the re-read:\n%s", name, got)
		}
		vetFixed(t, mod)
	}
}
