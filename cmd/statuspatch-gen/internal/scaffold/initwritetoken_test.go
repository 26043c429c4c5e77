package scaffold

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInitSaysWriteToken: init says, per kind of the project's own API
// packages with a status, whether it has a write token
// (+statuspatch:writeToken): Ledger's field, and for Widget the field
// to add and why; it edits no API type (testdata/init/v4.15-token).
func TestInitSaysWriteToken(t *testing.T) {
	edits, notes, err := planInit(filepath.Join("testdata", "init", "v4.15-token", "before"), "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"statuspatch-gen init: api/v1/ledger_types.go: Ledger has a write token, LedgerStatus.WriteToken: only its patcher may write it; apply its CRD with the controller, on every upgrade too (Helm never upgrades crds/), or the server drops the token (" + writeTokenDoc + ")",
		"statuspatch-gen init: api/v1/widget_types.go: Widget has no write token; if its decisions are not idempotent (a counter, an append), add WriteToken string `json:\"writeToken,omitempty\"` to WidgetStatus under // +statuspatch:writeToken (" + writeTokenDoc + ")",
	}
	for _, w := range want {
		if !slices.Contains(notes, w) {
			t.Errorf("init does not say\n%s\nit says:\n%s", w, strings.Join(notes, "\n"))
		}
	}
	for _, e := range edits {
		if strings.HasPrefix(e.path, "api/") {
			t.Errorf("init edits %s: it must leave the API types to the user", e.path)
		}
	}
	if !slices.ContainsFunc(edits, func(e fileEdit) bool { return e.path == "internal/controller/ledger_testenv_test.go" }) {
		t.Errorf("no starter test for Ledger, a kind with a write token: %v", edits)
	}
}

// A status field already named WriteToken (not the token) is not
// suggested again; a kind without its API types in the project (another
// module's, or not there) gets no note.
func TestWriteTokenNotesFieldName(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "api", "v1", "gadget_types.go"), `package v1

type GadgetStatus struct {
	WriteToken string `+"`json:\"writeToken,omitempty\"`"+`
}

type Gadget struct {
	Status *GadgetStatus `+"`json:\"status,omitempty\"`"+`
}
`)
	p := &kbProject{Repo: "example.com/g", Resources: []kbResource{
		{API: &struct {
			Namespaced bool `json:"namespaced"`
		}{}, Kind: "Gadget", Path: "example.com/g/api/v1"},
		{API: &struct {
			Namespaced bool `json:"namespaced"`
		}{}, Kind: "Missing", Path: "example.com/g/api/v2"},
		{API: &struct {
			Namespaced bool `json:"namespaced"`
		}{}, Kind: "Deployment", Path: "k8s.io/api/apps/v1", Core: true},
	}}
	notes, err := writeTokenNotes(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "Gadget has no write token") || !strings.Contains(notes[0], "add StatuspatchWriteToken string `json:\"statuspatchWriteToken,omitempty\"` to") {
		t.Errorf("notes: %q", notes)
	}
}
