package diff

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

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
		got, changed, ok := d.Patch()
		if !ok {
			t.Fatalf("seed %d: the field diff declined to make its patch", seed)
		}
		if !changed {
			got = []byte("{}")
		}
		if string(got) != string(whole) {
			t.Fatalf("seed %d: field diff %s, whole-status diff %s", seed, got, whole)
		}
	}
}

// A string, number or bool field is compared as reflect.DeepEqual compares
// it (a NaN equals nothing), without allocating.
func TestEqualValuesOfScalars(t *testing.T) {
	type status struct {
		N   int32
		F   float64
		S   string
		B   bool
		P   *int32
		L   []string
		Nan float64
	}
	one := int32(1)
	a := &status{N: 1, F: 0.5, S: "x", B: true, P: &one, L: []string{"a"}, Nan: math.NaN()}
	for _, b := range []*status{
		{N: 1, F: 0.5, S: "x", B: true, P: &one, L: []string{"a"}, Nan: math.NaN()},
		{N: 2, F: 0.25, S: "y", P: new(int32), L: []string{"b"}},
	} {
		av, bv := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
		for i := range av.NumField() {
			want := reflect.DeepEqual(av.Field(i).Interface(), bv.Field(i).Interface())
			if got := equalValues(av.Field(i), bv.Field(i)); got != want {
				t.Errorf("field %s: equalValues %v, reflect.DeepEqual %v", av.Type().Field(i).Name, got, want)
			}
		}
	}
	av, bv := reflect.ValueOf(a).Elem(), reflect.ValueOf(&status{N: 2}).Elem()
	if n := testing.AllocsPerRun(100, func() {
		for i := range 4 {
			equalValues(av.Field(i), bv.Field(i))
		}
	}); n != 0 {
		t.Errorf("comparing scalars allocated %v times", n)
	}
}
