package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenRunsSplitsCollidingGroups: kubebuilder's multigroup sample
// declares Bar in the groups foo and fiz; one output package cannot hold
// two BarStatusPatcher types, and statuspatch-gen refused (make generate
// failed after init). The group that declares it second gets a run of its
// own, into internal/patchers/fizpatchers, said in a note; the other
// groups keep one run. Without a collision there is one run over ./api/...
// as before.
func TestGenRunsSplitsCollidingGroups(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"foo", "fiz", "crew", "sea-creatures"} {
		if err := os.MkdirAll(filepath.Join(dir, "api", g, "v1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	res := func(group, kind string) kbResource {
		r := kbResource{Kind: kind, Group: group, Path: "example.com/sample/api/" + group + "/v1"}
		r.API = &struct {
			Namespaced bool `json:"namespaced"`
		}{}
		return r
	}
	p := &kbProject{Repo: "example.com/sample", MultiGroup: true}
	p.layout.apiDirs, p.layout.output = []string{"api"}, "internal/patchers"
	p.Resources = []kbResource{res("crew", "Captain"), res("foo", "Bar"), res("fiz", "Bar"), res("sea-creatures", "Kraken")}
	runs, note := p.genRuns(dir)
	want := []genRun{
		{paths: "{./api/crew/...,./api/foo/...,./api/sea-creatures/...}", output: "./internal/patchers"},
		{paths: "./api/fiz/...", output: "./internal/patchers/fizpatchers"},
	}
	if len(runs) != len(want) || runs[0] != want[0] || runs[1] != want[1] {
		t.Errorf("runs %v, want %v", runs, want)
	}
	if !strings.Contains(note, "generates into internal/patchers/fizpatchers (api/fiz) too") {
		t.Errorf("note %q", note)
	}
	p.Resources = p.Resources[:2]
	if runs, note = p.genRuns(dir); len(runs) != 1 || runs[0] != (genRun{paths: "./api/...", output: "./internal/patchers"}) || note != "" {
		t.Errorf("without a collision: runs %v, note %q", runs, note)
	}
}
