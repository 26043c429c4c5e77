package diff

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/randfill"
)

// nullStatus has every shape of null a status can hold: a required
// nullable pointer (no omitempty), nil map values, nil slice elements, and
// the same inside a nested struct.
type nullStatus struct {
	Owner *string            `json:"owner"`
	Phase string             `json:"phase,omitempty"`
	Notes map[string]*string `json:"notes,omitempty"`
	List  []*string          `json:"list,omitempty"`
	Plan  *nullPlan          `json:"plan,omitempty"`
}

type nullPlan struct {
	ID    *string           `json:"id"`
	Steps []string          `json:"steps,omitempty"`
	Marks map[string]*int32 `json:"marks,omitempty"`
}

// applyWrite applies a status write to the server's object as the API
// server does, and returns the resulting object.
func applyWrite(t *testing.T, pt types.PatchType, body, doc []byte) []byte {
	t.Helper()
	switch pt {
	case types.MergePatchType:
		out, err := jsonpatch.MergePatch(doc, body)
		if err != nil {
			t.Fatalf("merge patch does not apply: %v\n%s", err, body)
		}
		return out
	case types.JSONPatchType:
		patch, err := jsonpatch.DecodePatch(body)
		if err != nil {
			t.Fatalf("JSON Patch does not decode: %v\n%s", err, body)
		}
		out, err := patch.Apply(doc)
		if err != nil {
			t.Fatalf("JSON Patch does not apply: %v\n%s\nto %s", err, body, doc)
		}
		return out
	}
	t.Fatalf("unexpected patch type %q", pt)
	return nil
}

// FuzzStatusWrite checks that for random statuses the write Flush sends,
// applied to the server's object, stores exactly the target status, nulls
// included (what Status().Update would store), and keeps the base's
// resourceVersion as the lock. When the base is the zero status the server
// may hold no status at all, and the write must work on that object too.
func FuzzStatusWrite(f *testing.F) {
	for _, s := range [][2]uint64{{1, 2}, {3, 3}, {0, 99}, {42, 7}, {5, 0}} {
		f.Add(s[0], s[1], uint8(3), false)
		f.Add(s[0], s[1], uint8(5), true)
	}
	f.Fuzz(func(t *testing.T, seedA, seedB uint64, nilChance uint8, emptyBase bool) {
		var base, target nullStatus
		if !emptyBase {
			randfill.NewWithSeed(int64(seedA)).NilChance(float64(nilChance%10)/10).NumElements(0, 3).Fill(&base)
		}
		randfill.NewWithSeed(int64(seedB)).NilChance(float64(nilChance%10)/10).NumElements(0, 3).Fill(&target)
		baseJSON, _ := json.Marshal(&base)
		targetJSON, _ := json.Marshal(&target)
		zero := reflect.ValueOf(base).IsZero()
		var want any
		_ = json.Unmarshal(targetJSON, &want)
		// The server's status: the base's, beside a field the Go type lacks
		// (another writer's), which every write must leave alone; and, for a
		// zero base, also no status at all.
		var stored map[string]any
		_ = json.Unmarshal(baseJSON, &stored)
		stored["other"] = "theirs"
		withOther, _ := json.Marshal(stored)
		docs := []string{`{"metadata":{"resourceVersion":"7"},"status":` + string(withOther) + `}`}
		if zero {
			docs = append(docs, `{"metadata":{"resourceVersion":"7"}}`) // no status stored yet
		}
		for _, doc := range docs {
			hasStatus := strings.Contains(doc, `"status"`)
			pt, body, err := StatusWrite("7", baseJSON, targetJSON, zero, func() (bool, error) { return hasStatus, nil })
			if err != nil {
				t.Fatal(err)
			}
			out := applyWrite(t, pt, body, []byte(doc))
			var got struct {
				Metadata map[string]any `json:"metadata"`
				Status   map[string]any `json:"status"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if hasStatus {
				if got.Status["other"] != "theirs" {
					t.Fatalf("another writer's field was lost\nserver: %s\nwrite (%s): %s\nstored: %s", doc, pt, body, out)
				}
				delete(got.Status, "other")
			}
			if !reflect.DeepEqual(any(got.Status), want) {
				t.Fatalf("stored status differs\nserver: %s\nwrite (%s): %s\nstored: %s\ntarget: %s", doc, pt, body, out, targetJSON)
			}
			if got.Metadata["resourceVersion"] != "7" {
				t.Fatalf("the write does not carry the lock: %s", body)
			}
		}
	})
}

func TestStatusWriteChoosesMergePatchUnlessANullWouldBeLost(t *testing.T) {
	for _, tc := range []struct {
		name, base, cur string
		zero, present   bool // present: the server holds a status object
		want            types.PatchType
		body            string
	}{
		{"plain change", `{"owner":"a"}`, `{"owner":"b"}`, false, true, types.MergePatchType,
			`{"metadata":{"resourceVersion":"7"},"status":{"owner":"b"}}`},
		{"deletion is what null means", `{"owner":"a","notes":{"x":"1"}}`, `{"owner":"a"}`, false, true, types.MergePatchType,
			`{"metadata":{"resourceVersion":"7"},"status":{"notes":null}}`},
		{"required nullable set to nil", `{"owner":"a","phase":"P"}`, `{"owner":null,"phase":"P"}`, false, true, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status/owner","value":null}]`},
		{"nil map value, key removed beside it", `{"owner":"a","notes":{"x":"1","y":"2"}}`, `{"owner":"a","notes":{"x":null}}`, false, true, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status/notes","value":{"x":null}}]`},
		{"member removed beside a null", `{"owner":"a","phase":"P"}`, `{"owner":null}`, false, true, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status/owner","value":null},{"op":"remove","path":"/status/phase"}]`},
		{"first write: every field, zero ones too", `{"owner":null,"count":0}`, `{"owner":"a","count":0}`, true, false, types.MergePatchType,
			`{"metadata":{"resourceVersion":"7"},"status":{"count":0,"owner":"a"}}`},
		{"first write carrying null: status added whole", `{"owner":null}`, `{"owner":null,"phase":"P"}`, true, false, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status","value":{"owner":null,"phase":"P"}}]`},
		{"first write carrying null onto a status of fields the Go type lacks: one field at a time", `{"owner":null}`, `{"owner":null,"phase":"P"}`, true, true, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status/owner","value":null},{"op":"add","path":"/status/phase","value":"P"}]`},
		{"member names are escaped", `{"owner":"a"}`, `{"owner":"a","a/b~c":null}`, false, true, types.JSONPatchType,
			`[{"op":"replace","path":"/metadata/resourceVersion","value":"7"},{"op":"add","path":"/status/a~1b~0c","value":null}]`},
		{"a string holding null is no null", `{"owner":"a"}`, `{"owner":"null"}`, false, true, types.MergePatchType,
			`{"metadata":{"resourceVersion":"7"},"status":{"owner":"null"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pt, body, err := StatusWrite("7", []byte(tc.base), []byte(tc.cur), tc.zero, func() (bool, error) { return tc.present, nil })
			if err != nil {
				t.Fatal(err)
			}
			if pt != tc.want || string(body) != tc.body {
				t.Fatalf("got %s %s\nwant %s %s", pt, body, tc.want, tc.body)
			}
		})
	}
	if _, _, err := StatusWrite("", []byte(`{"owner":"a"}`), []byte(`{"owner":null}`), false, nil); err == nil || !strings.Contains(err.Error(), "resourceVersion") {
		t.Fatalf("a write without resourceVersion: got %v, want an error naming it", err)
	}
}
