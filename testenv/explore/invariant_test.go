package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/judge"

	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docsRow is a row of docs/explore.md's "What is checked" table: the
// invariant's name.
var docsRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")

// TestInvariantsTableIsTheDocsList: the list of docs/explore.md's "What
// is checked" is the table judge.Builtins, in its order; and what
// Options.Disable takes is the table's names but the required ones.
func TestInvariantsTableIsTheDocsList(t *testing.T) {
	_ = os.Getenv("STATUSPATCH_DOCS_DIGEST") // go test's cache: the page is outside the module
	page, err := os.ReadFile("../../docs/explore.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	start := strings.Index(text, "\n## What is checked\n")
	if start < 0 {
		t.Fatal(`docs/explore.md: no "## What is checked"`)
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var docs, table []string
	for _, m := range docsRow.FindAllStringSubmatch(section, -1) {
		docs = append(docs, m[1])
	}
	for _, inv := range judge.Builtins {
		table = append(table, inv.Name)
	}
	if !slices.Equal(docs, table) {
		t.Fatalf("docs/explore.md lists the invariants\n  %q\nthe table judge.Builtins (internal/judge/table.go) is\n  %q", docs, table)
	}

	for _, inv := range judge.Builtins {
		ex := &explorer{o: Options{Disable: []string{inv.Name}}}
		err := ex.setup.validateDisable(ex.o)
		if inv.Required != (err != nil) || (err == nil && !ex.setup.forRun.Disabled[inv.Name]) {
			t.Errorf("Disable %q: required %t, got %v", inv.Name, inv.Required, err)
		}
	}
	if err := (&setupState{}).validateDisable(Options{Disable: []string{"no such thing"}}); err == nil || !strings.Contains(err.Error(), strings.Join(judge.Disableable(), `" "`)) {
		t.Errorf("unknown name: want an error listing the table's names, got %v", err)
	}
}

// TestInvariantNamesAreTheTables: each exported Invariant* constant is
// the name of the table's row it documents.
func TestInvariantNamesAreTheTables(t *testing.T) {
	for name, want := range map[string]string{
		InvariantLostWrite:               judge.NameLostWrite,
		InvariantObservedGeneration:      judge.NameObservedGeneration,
		InvariantObservedGenerationStuck: judge.NameObservedGenerationStuck,
		InvariantConverges:               judge.NameConverges,
		InvariantUser:                    judge.NameUser,
		InvariantNoPanic:                 judge.NameNoPanic,
		InvariantOwnDelete:               judge.NameOwnDelete,
		InvariantDeletedStaysDeleted:     judge.NameDeletedStaysDeleted,
		InvariantErrorLoop:               judge.NameErrorLoop,
		InvariantRecordLive:              judge.NameRecordLive,
		InvariantStuckFinalizer:          judge.NameStuckFinalizer,
	} {
		if name != want {
			t.Errorf("explore's constant %q, judge's name %q: the two name one invariant", name, want)
		}
	}
	if n := len(judge.Builtins); n != 11 {
		t.Errorf("judge.Builtins has %d rows, the explorer names 11 invariants: add the constant", n)
	}
}
