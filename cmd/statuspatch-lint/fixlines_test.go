package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

const fixLinesSrc = `package ctrl

import (
	"context"
)

func reconcile(ctx context.Context, w *Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	return r.Status().Patch(ctx, w, client.MergeFrom(base))
}
`

// A migration's fix adds an import, makes the patcher where the base was
// taken and turns the write into Flush; the checker's -json lists the
// edits sorted by position, the import first. The fixed: line is at the
// write (line 10), naming where the fix starts in the code (line 8), not
// the import.
func TestFixedLineIsTheWrites(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ctrl.go")
	if err := os.WriteFile(file, []byte(fixLinesSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	offset := func(s string) int { return strings.Index(fixLinesSrc, s) }
	type edit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
	}
	diag := map[string]any{
		"posn":    file + ":10:9",
		"message": "handwritten status write to Widget",
		"suggested_fixes": []map[string]any{{
			"message": "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush)",
			"edits": []edit{
				{file, offset("\"context\"") + len("\"context\"")},
				{file, offset("base :=")},
				{file, offset("r.Status()")},
			},
		}},
	}
	out, err := json.Marshal(map[string]map[string]any{"example.com/op/ctrl": {"statuspatch": []any{diag}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := parseFixes(out)
	if err != nil {
		t.Fatal(err)
	}
	lines, files := rep.lines, rep.files
	want := file + ":10: fixed: move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush) (edit at " + file + ":8)"
	if len(lines) != 1 || lines[0] != want {
		t.Errorf("fixed lines:\n%q\nwant\n%q", lines, want)
	}
	if len(files) != 1 || files[0] != file {
		t.Errorf("files %q, want [%s]", files, file)
	}
}

// -fix says what it did to each finding (issue 80): a finding without a
// fix gets a kept: line at its write, carrying its message (why it
// stayed), and the summary counts it.
func TestFixSaysWhatItKept(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ctrl.go")
	if err := os.WriteFile(file, []byte(fixLinesSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := "blind: Status().Update of Widget: status replayed from before the re-read (assigned from captured desired) (not moved to the patcher: the status assigned at line 9 is decided before the re-read at line 8, ...)"
	diags := []any{
		map[string]any{"posn": file + ":10:9", "message": kept},
		map[string]any{"posn": file + ":10:9", "message": kept}, // its test variant's
	}
	out, err := json.Marshal(map[string]map[string]any{"example.com/op/ctrl": {"statuspatch": diags}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := parseFixes(out)
	if err != nil {
		t.Fatal(err)
	}
	want := file + ":10: kept: " + kept
	if len(rep.lines) != 1 || rep.lines[0] != want || rep.fixed != 0 || rep.kept != 1 || len(rep.files) != 0 {
		t.Errorf("report %+v, want one line %q and kept 1", rep, want)
	}
	if got := rep.count(); got != "fixed 0 status writes, kept 1" {
		t.Errorf("count %q", got)
	}
}

// A lock that leaves its write a finding (lint.FixStays: a generic
// helper's patch, still handwritten after it) is printed as locked and
// kept, and counted kept: the run after reports it.
func TestFixSaysWhatItLockedAndKept(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ctrl.go")
	if err := os.WriteFile(file, []byte(fixLinesSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	finding := "handwritten status write to an object of unknown kind: use the generated status patcher of the object's concrete type"
	diag := map[string]any{
		"posn":    file + ":10:9",
		"message": finding,
		"suggested_fixes": []map[string]any{{
			"message": "add client.MergeFromWithOptimisticLock to the status patch" + lint.FixStays,
			"edits":   []map[string]any{{"filename": file, "start": strings.Index(fixLinesSrc, "r.Status()")}},
		}},
	}
	out, err := json.Marshal(map[string]map[string]any{"example.com/op/ctrl": {"statuspatch": []any{diag}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := parseFixes(out)
	if err != nil {
		t.Fatal(err)
	}
	want := file + ":10: locked, kept: " + finding + " (add client.MergeFromWithOptimisticLock to the status patch)"
	if len(rep.lines) != 1 || rep.lines[0] != want || rep.fixed != 0 || rep.kept != 1 || len(rep.files) != 1 {
		t.Errorf("report %+v, want one line %q, kept 1 and its file", rep, want)
	}
	if got := rep.count(); got != "fixed 0 status writes, kept 1 (1 of them locked)" {
		t.Errorf("count %q", got)
	}
}
