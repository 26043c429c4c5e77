package report

import (
	"encoding/json"
	"slices"
	"testing"
)

// A merge of shards orders its violations as the serial search does
// (Place.Compare, explore's rank.go): of equal ranks the one whose
// schedule needs no fault first, then the one whose own invariant has
// the rank, before the schedule that found each. KubeRay's head Pod bug
// (rank 2 by the error loop in its Also, found by schedule 8 with no
// fault) leads, not the worker Pod a new leader deletes (rank 2, found
// by schedule 3 after a leader change), whichever shard found which
// (examples/realops's TestRayHeadPodDeepening); the reports as the
// explore-merge command reads them from the shards' files.
func TestMergeOrdersEqualRanksAsTheSearch(t *testing.T) {
	shards := []string{
		`{"seed": 5, "schedules": 12, "shards": [{"index": 0, "count": 2}], "ran": 6, "violations": [
		  {"invariant": "no delete of own creation", "message": "Pod ray/w deleted by step 4", "rank": 2, "faulted": true, "ownRank": 2, "replay": "a#2L", "schedule": 3},
		  {"invariant": "no lost write", "message": "status.x written by step 2", "rank": 2, "ownRank": 4, "replay": "c", "schedule": 5}]}`,
		`{"seed": 5, "schedules": 12, "shards": [{"index": 1, "count": 2}], "ran": 6, "violations": [
		  {"invariant": "user invariant", "message": "leaked", "rank": 2, "ownRank": 2, "replay": "d", "schedule": 9},
		  {"invariant": "observedGeneration not stuck", "message": "RayCluster ray/hello stuck at 1", "rank": 2, "ownRank": 3, "replay": "b", "schedule": 8},
		  {"invariant": "no lost write", "message": "status.lastUpdateTime", "rank": 5, "ownRank": 5, "replay": "e", "schedule": 1}]}`,
	}
	var reports []Report
	for _, s := range shards {
		var r Report
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	want := []string{"d", "b", "c", "a#2L", "e"}
	for _, order := range [][]Report{reports, {reports[1], reports[0]}} {
		got, err := Merge(order)
		if err != nil {
			t.Fatal(err)
		}
		var replays []string
		for _, v := range got.Violations {
			replays = append(replays, v.Replay)
		}
		if !slices.Equal(replays, want) {
			t.Errorf("merged: %q; want %q: of rank 2, fault-free before faulted, own rank 2 before 3 before 4, then rank 5", replays, want)
		}
	}
}

// A report keeps what orders equal ranks: the merge of reports read back
// from their files orders them as the search did.
func TestReportKeepsFaultedAndOwnRank(t *testing.T) {
	v := Violation{Invariant: "no delete of own creation", Rank: 2, Faulted: true, Own: 3, Replay: "a#1L"}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back Violation
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Place() != v.Place() {
		t.Errorf("read back %s: place %+v; want %+v", b, back.Place(), v.Place())
	}
}
