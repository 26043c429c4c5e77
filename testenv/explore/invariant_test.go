package explore

import (
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
// is checked" is the table builtins, in its order; and what
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
	for _, inv := range builtins {
		table = append(table, inv.name)
	}
	if !slices.Equal(docs, table) {
		t.Fatalf("docs/explore.md lists the invariants\n  %q\nthe table builtins (invariant.go) is\n  %q", docs, table)
	}

	for _, inv := range builtins {
		ex := &explorer{o: Options{Disable: []string{inv.name}}}
		err := ex.setup.validateDisable(ex.o)
		if inv.required != (err != nil) || (err == nil && !ex.setup.disabled[inv.name]) {
			t.Errorf("Disable %q: required %t, got %v", inv.name, inv.required, err)
		}
	}
	if err := (&setupState{}).validateDisable(Options{Disable: []string{"no such thing"}}); err == nil || !strings.Contains(err.Error(), strings.Join(disableable(), `" "`)) {
		t.Errorf("unknown name: want an error listing the table's names, got %v", err)
	}
}
