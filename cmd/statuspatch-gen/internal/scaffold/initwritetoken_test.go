package scaffold

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInitSaysWriteToken: init says, per kind of the project's own API
// packages with a status, whether it has a write token
// (+statuspatch:writeToken): Ledger's field, and for Widget the two lines
// to add and why; it edits no API type (testdata/init/v4.15-token).
func TestInitSaysWriteToken(t *testing.T) {
	edits, notes, err := planInit(filepath.Join("testdata", "init", "v4.15-token", "before"), "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"statuspatch-gen init: api/v1/ledger_types.go: Ledger has a write token, LedgerStatus.WriteToken (+statuspatch:writeToken): its generated patcher puts a fresh token there in every status write and settles a lost answer by it, so nothing else may write it (statuspatch-lint reports a write of it); the CustomResourceDefinition with the token must be applied to the cluster with the controller that writes it, and upgraded with it (Helm installs a chart's crds/ once and never upgrades them: apply config/crd, or the chart's CRDs, yourself on every upgrade), as a CRD without status.writeToken in its storage version makes the server prune the token from every write",
		"statuspatch-gen init: api/v1/widget_types.go: Widget has no write token; if its reconciler makes decisions that are not idempotent (a counter, a queue taken from, an append), add to WidgetStatus a field WriteToken string `json:\"writeToken,omitempty\"` with the comment line // +statuspatch:writeToken above it, and run make generate manifests: every status write then carries a fresh token, and a write whose answer is lost is settled exactly (stored, or a Conflict) where it could be ErrWriteOutcomeUnknown (docs/patcher.md#the-write-token-exact-answers-for-decisions-that-are-not-idempotent); the CustomResourceDefinition with the token must be applied to the cluster with the controller that writes it, and upgraded with it (Helm installs a chart's crds/ once and never upgrades them: apply config/crd, or the chart's CRDs, yourself on every upgrade), as a CRD without status.writeToken in its storage version makes the server prune the token from every write; init does not edit the API types",
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
	if len(notes) != 1 || !strings.Contains(notes[0], "Gadget has no write token") || !strings.Contains(notes[0], "a field StatuspatchWriteToken string `json:\"statuspatchWriteToken,omitempty\"` with") {
		t.Errorf("notes: %q", notes)
	}
}
