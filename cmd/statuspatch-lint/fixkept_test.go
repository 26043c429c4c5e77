package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixKeptSrc = `package ctrl

func reconcile(ctx context.Context, w *Widget) error {
	base := w.DeepCopy()
	w.Status.Ready = true
	if err := r.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil {
		return err
	}
	w.Spec.Size = 1
	return r.Status().Update(ctx, w)
}
`

// A kept finding's reason, carried from the run before the fixes, names
// lines of the code the fixes wrote (issue 80): a fix that adds a line
// above (the patcher made after the base, one line) moves the spec
// change of line 9 to line 10. At adaadbc9 the reason still said line
// 9, a line of the code before the fixes, where a second run reads the
// fixed file.
func TestKeptReasonNamesTheFixedLines(t *testing.T) {
	file := filepath.Join(t.TempDir(), "ctrl.go")
	if err := os.WriteFile(file, []byte(fixKeptSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	off := func(s string) int { return strings.Index(fixKeptSrc, s) }
	at := off("\n\tw.Status.Ready")
	moved := map[string]any{
		"posn":    file + ":6:12",
		"message": "handwritten status write to Widget",
		"suggested_fixes": []map[string]any{{
			"message": "move the status write onto WidgetStatusPatcher (NewWidgetStatusPatcher, then Flush)",
			"edits": []map[string]any{
				{"filename": file, "start": at, "end": at, "new": "\n\twPatcher := patchers.NewWidgetStatusPatcher(r.Client, w)"},
				{"filename": file, "start": off("r.Status().Patch"), "end": off("; err != nil"), "new": "wPatcher.Flush(ctx)"},
			},
		}},
	}
	head := "handwritten status write to Widget: use WidgetStatusPatcher (example.com/op/internal/patchers)"
	kept := map[string]any{"posn": file + ":10:9", "message": head + " (not moved to the patcher: w.Spec.Size is assigned at line 9, and ctrl.go:4 takes the base)"}
	out, err := json.Marshal(map[string]map[string]any{"example.com/op/ctrl": {"statuspatch": []any{moved, kept, moved}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := parseFixes(out)
	if err != nil {
		t.Fatal(err)
	}
	after := file + ":11:9: " + head + " (not moved to the patcher: w.Spec.Size is assigned at line 10, the fixes' code)\n"
	want := file + ":11:9: " + head + " (not moved to the patcher: w.Spec.Size is assigned at line 10, and ctrl.go:4 takes the base)\n"
	if got := string(rep.asBefore([]byte(after))); got != want {
		t.Errorf("the kept finding after the fixes:\n%s\nwant\n%s", got, want)
	}
}
