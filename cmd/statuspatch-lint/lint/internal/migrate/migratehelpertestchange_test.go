package migrate_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
)

// A test call is rewritten when the object is as the test made, seeded
// or read it (kueue's TestActiveConditionSurfacesBackoff:
// multikueuecluster_test.go:1011 and :1028); a change in between, before
// the call or after it in a loop around it, keeps the helper.
func TestTestCallsKeepChangedObject(t *testing.T) {
	for _, c := range []struct{ name, body, why string }{
		{"seeded, then read", `cluster := makeCluster()
	cl := builder().WithObjects(cluster).WithStatusSubresource(cluster).Build()
	_ = r.updateStatus(ctx, cluster, "x")
	got := &Cluster{}
	if err := cl.Get(ctx, client.ObjectKeyFromObject(cluster), got); err != nil {
		t.Fatalf("get: %v", err)
	}
	act := apimeta.FindStatusCondition(got.Status.Conditions, "Active")
	t.Logf("%v %v", act, got)
	_ = r.updateStatus(ctx, got, "y")`, ""},
		{"status set before the seed", `cq := makeCluster()
	cq.Status = want
	_ = builder().WithObjects(cq).Build()
	_ = r.updateStatus(ctx, cq, "x")`, ""},
		{"status set after the read", `got := &Cluster{}
	_ = cl.Get(ctx, key, got)
	apimeta.SetStatusCondition(&got.Status.Conditions, c)
	_ = r.updateStatus(ctx, got, "x")`, "ctrlt_test.go:7 calls updateStatus with got, which it may change before the call (it passes &got.Status.Conditions to SetStatusCondition at line 6, which may change it)"},
		{"method on it", `got := makeCluster()
	got.SetConditions(c)
	_ = r.updateStatus(ctx, got, "x")`, "ctrlt_test.go:6 calls updateStatus with got, which it may change before the call (it calls got.SetConditions at line 5, which may change it)"},
		{"changed after the call in a loop", `got := makeCluster()
	for range 2 {
		_ = r.updateStatus(ctx, got, "x")
		got.Status.Ready = false
	}`, "ctrlt_test.go:6 calls updateStatus with got, which it may change before the call (it sets got.Status.Ready at line 7, in the loop around the call)"},
		{"read again in the loop", `got := makeCluster()
	for range 2 {
		_ = cl.Get(ctx, key, got)
		_ = r.updateStatus(ctx, got, "x")
		got.Status.Ready = false
	}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "/m/ctrlt/ctrlt_test.go", "package ctrlt\n\nfunc TestF(t *testing.T) {\n\t"+c.body+"\n}\n", 0)
			if err != nil {
				t.Fatal(err)
			}
			tc := &migrate.TestCalls{Name: "updateStatus", Method: true, ObjIndex: 1, ClientIndex: -1, ClientRest: ".local", PatcherPkg: "m/kindpatch", PatcherName: "kindpatch", Ctor: "NewClusterStatusPatcher"}
			edits, why := tc.Edits(fset, []*ast.File{f}, nil)
			switch {
			case c.why == "" && why != "":
				t.Errorf("kept: %s", why)
			case c.why == "" && len(edits) == 0:
				t.Error("no edits")
			case c.why != "" && !strings.Contains(why, c.why):
				t.Errorf("why = %q, want %q", why, c.why)
			}
		})
	}
}
