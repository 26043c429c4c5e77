package diff

import (
	"encoding/json"
	"reflect"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/randfill"
)

// FuzzStatusMergePatch checks that, for random pairs of statuses, the patch
// Flush sends turns the base status into the target: the body carries the
// resourceVersion and a status merge patch which, applied to the base,
// yields the target.
func FuzzStatusMergePatch(f *testing.F) {
	for _, seeds := range [][2]uint64{{1, 2}, {3, 3}, {0, 99}, {42, 7}} {
		f.Add(seeds[0], seeds[1], uint8(3))
	}
	f.Fuzz(func(t *testing.T, seedA, seedB uint64, nilChance uint8) {
		base := fill(seedA, nilChance)
		target := fill(seedB, nilChance)
		baseJSON, err := json.Marshal(&base)
		if err != nil {
			t.Fatal(err)
		}
		targetJSON, err := json.Marshal(&target)
		if err != nil {
			t.Fatal(err)
		}
		diff, err := StatusMergePatch(baseJSON, targetJSON)
		if err != nil {
			t.Fatal(err)
		}
		body, err := PatchBody("12345", diff)
		if err != nil {
			t.Fatal(err)
		}
		var sent struct {
			Metadata map[string]string `json:"metadata"`
			Status   json.RawMessage   `json:"status"`
		}
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Fatalf("body is not JSON: %v\n%s", err, body)
		}
		if len(sent.Metadata) != 1 || sent.Metadata["resourceVersion"] != "12345" {
			t.Fatalf("metadata = %v, want only the resourceVersion", sent.Metadata)
		}
		applied, err := jsonpatch.MergePatch(baseJSON, sent.Status)
		if err != nil {
			t.Fatal(err)
		}
		var got, want appsv1.DeploymentStatus
		if err := json.Unmarshal(applied, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(targetJSON, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("base + patch != target\nbase:   %s\npatch:  %s\ngot:    %s\ntarget: %s", baseJSON, sent.Status, applied, targetJSON)
		}
	})
}

func fill(seed uint64, nilChance uint8) appsv1.DeploymentStatus {
	var s appsv1.DeploymentStatus
	randfill.NewWithSeed(int64(seed)).NilChance(float64(nilChance%10)/10).NumElements(0, 4).Fill(&s)
	// Times marshal at second precision; truncate so the round trip is exact.
	for i := range s.Conditions {
		s.Conditions[i].LastUpdateTime.Time = s.Conditions[i].LastUpdateTime.Time.Truncate(1e9).UTC()
		s.Conditions[i].LastTransitionTime.Time = s.Conditions[i].LastTransitionTime.Time.Truncate(1e9).UTC()
	}
	return s
}
