package v1_test

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestGeneratedDiffOneLeaf checks the generated equality functions where
// FuzzGeneratedDiffMatchesReflection cannot: the two statuses are equal but
// for one leaf deep inside (a string, number or bool changed, a pointer,
// slice or map made nil, empty or shorter, a map entry's value changed).
// An equality function that skips a field, an element or a map entry calls
// them equal, sends nothing, and differs from the reflection path. Every
// leaf of a few random statuses is changed in turn.
func TestGeneratedDiffOneLeaf(t *testing.T) {
	for seed := range uint64(6) {
		for pick := uint64(0); ; pick++ {
			if !oneLeaf(t, seed, pick, uint8(seed)) {
				break
			}
		}
	}
}

// FuzzGeneratedDiffOneLeaf is TestGeneratedDiffOneLeaf on random statuses.
func FuzzGeneratedDiffOneLeaf(f *testing.F) {
	f.Add(uint64(1), uint64(0), uint8(2))
	f.Fuzz(func(t *testing.T, seed, pick uint64, nilChance uint8) {
		var leaves []func(*rand.Rand)
		collectLeaves(reflect.ValueOf(ptr(fillStatus(seed, nilChance))).Elem(), &leaves)
		if len(leaves) > 0 {
			oneLeaf(t, seed, pick%uint64(len(leaves)), nilChance)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// oneLeaf compares the two paths' patches for the status of seed with its
// leaf number pick changed; false when it has no such leaf.
func oneLeaf(t *testing.T, seed, pick uint64, nilChance uint8) bool {
	t.Helper()
	base := fillStatus(seed, nilChance)
	target := *base.DeepCopy()
	var leaves []func(*rand.Rand)
	collectLeaves(reflect.ValueOf(&target).Elem(), &leaves)
	if pick >= uint64(len(leaves)) {
		return false
	}
	leaves[pick](rand.New(rand.NewPCG(seed, pick)))
	want, wantErr := sent(t, false, base, target)
	got, gotErr := sent(t, true, base, target)
	if (wantErr == nil) != (gotErr == nil) {
		t.Fatalf("seed %d leaf %d: reflection path error %v, generated diff error %v", seed, pick, wantErr, gotErr)
	}
	if string(got) != string(want) {
		t.Fatalf("seed %d leaf %d: patches differ\nreflection: %s\ngenerated:  %s", seed, pick, want, got)
	}
	return true
}

// collectLeaves appends a change of every value under v that mutate can
// change: scalars, pointers, slices, maps, and the values under a map's
// entries (changed in a copy, which is stored back). A struct without
// exported fields (time.Time) is a leaf, changed to its zero value.
func collectLeaves(v reflect.Value, leaves *[]func(*rand.Rand)) {
	leaf := func(r *rand.Rand) { mutate(v, r) }
	switch v.Kind() {
	case reflect.Struct:
		exported := false
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				exported = true
				collectLeaves(v.Field(i), leaves)
			}
		}
		if !exported {
			*leaves = append(*leaves, leaf)
		}
	case reflect.Pointer:
		*leaves = append(*leaves, leaf)
		if !v.IsNil() {
			collectLeaves(v.Elem(), leaves)
		}
	case reflect.Slice:
		*leaves = append(*leaves, leaf)
		for i := range v.Len() {
			collectLeaves(v.Index(i), leaves)
		}
	case reflect.Map:
		*leaves = append(*leaves, leaf)
		for it := v.MapRange(); it.Next(); {
			k, e := it.Key(), reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			var inner []func(*rand.Rand)
			collectLeaves(e, &inner)
			for _, change := range inner {
				*leaves = append(*leaves, func(r *rand.Rand) {
					change(r)
					v.SetMapIndex(k, e)
				})
			}
		}
	default:
		*leaves = append(*leaves, leaf)
	}
}

// mutate changes leaf v in one way.
func mutate(v reflect.Value, r *rand.Rand) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		} else {
			v.SetZero()
		}
	case reflect.Slice:
		switch {
		case v.IsNil():
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		case v.Len() > 0 && r.IntN(2) == 0:
			v.Set(v.Slice(0, v.Len()-1))
		default:
			v.SetZero()
		}
	case reflect.Map:
		switch {
		case v.IsNil():
			v.Set(reflect.MakeMap(v.Type()))
		case v.Len() > 0 && r.IntN(2) == 0:
			m := reflect.MakeMap(v.Type())
			it := v.MapRange()
			it.Next() // drop one entry
			for it.Next() {
				m.SetMapIndex(it.Key(), it.Value())
			}
			v.Set(m)
		default:
			v.SetZero()
		}
	case reflect.Struct:
		v.SetZero()
	}
}
