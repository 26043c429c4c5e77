package diff

import (
	"encoding/json"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/randfill"
)

// The field-by-field diff through reflection sends exactly the patch the
// whole-status diff computes (or declines), on random Deployment statuses
// and on statuses that differ from each other in a few fields.
func TestReflectFieldDiffMatchesWholeStatus(t *testing.T) {
	fields := PlanFor(reflect.TypeFor[appsv1.DeploymentStatus]())
	if fields == nil {
		t.Fatal("DeploymentStatus is not eligible")
	}
	for seed := int64(0); seed < 500; seed++ {
		f := randfill.NewWithSeed(seed).NilChance(0.3).NumElements(0, 3)
		base, cur := &appsv1.Deployment{}, &appsv1.Deployment{}
		f.Fill(&base.Status)
		if seed%2 == 0 {
			cur.Status = *base.Status.DeepCopy()
			switch seed % 8 {
			case 0:
				cur.Status.ReadyReplicas++
			case 2:
				f.Fill(&cur.Status.Conditions)
			case 4:
				cur.Status.CollisionCount = nil
			}
		} else {
			f.Fill(&cur.Status)
		}
		var d Fields
		if !d.Reflect(fields, &base.Status, &cur.Status) || d.decline {
			continue
		}
		b, _ := json.Marshal(&base.Status)
		c, _ := json.Marshal(&cur.Status)
		whole, err := StatusMergePatch(b, c)
		if err != nil {
			t.Fatal(err)
		}
		got := []byte("{}")
		if len(d.base)+len(d.cur) > 0 {
			if got, err = jsonpatch.CreateMergePatch(object(d.base), object(d.cur)); err != nil {
				t.Fatal(err)
			}
		}
		if string(got) != string(whole) {
			t.Fatalf("seed %d: field diff %s, whole-status diff %s", seed, got, whole)
		}
	}
}
