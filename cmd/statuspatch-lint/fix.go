package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/fixfiles"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
)

// childEnv marks the runs fixAndReport makes of this command, which go
// straight to the checker.
const childEnv = "STATUSPATCH_LINT_FIX_RUN"

// wantsFix reports whether the command should run fixAndReport: -fix is
// given among the flags, not with -diff or -json (which the checker handles
// on its own), and the command is not run by go vet (a .cfg argument) or
// asked to describe itself.
func wantsFix(args []string) bool {
	if os.Getenv(childEnv) != "" {
		return false
	}
	fix := false
	for _, a := range args {
		name, val, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case strings.HasSuffix(a, ".cfg"):
			return false
		case !strings.HasPrefix(a, "-"):
			continue
		case name == "fix":
			fix = val == "" || val == "true" || val == "1"
		case name == "diff" || name == "json" || name == "flags" || name == "V" || name == "help" || name == "h":
			return false
		}
	}
	return fix
}

// withoutFix returns args without the -fix flag.
func withoutFix(args []string) []string {
	var out []string
	for _, a := range args {
		if name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "="); strings.HasPrefix(a, "-") && name == "fix" {
			continue
		}
		out = append(out, a)
	}
	return out
}

// fixAndReport runs -fix so that it says what it did: the checker applies
// fixes silently and exits 0 even when findings remain. It lists the
// fixes, applies them, and analyzes again to report what is left: with
// the export-data driver in this process (one analysis lists and applies),
// else in three runs of the full checker (-json, -fix, and the report).
// It prints one line per finding, what it did to it (`file:line: fixed:
// ...`, `file:line: kept: <finding>`, or `file:line: locked, kept:
// <finding> (<lock>)` for a lock that leaves it a finding, lint.FixStays),
// then the findings left as the
// default run prints them, then a summary, and returns the exit status of
// the last run: 0 when nothing is left, 3 when findings remain, 1 on
// errors.
func fixAndReport(args []string, stdout, stderr io.Writer) int {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
		return 1
	}
	rest := withoutFix(args)
	rep, code, done := fixInProcess(args, stderr)
	if !done {
		rep, code = fixInChildren(self, args, rest, stderr)
	}
	if code != 0 {
		return code
	}
	for _, l := range rep.lines {
		fmt.Fprintln(stderr, l)
	}
	for _, f := range rep.files {
		if err := fixfiles.DropUnusedClientImport(f); err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1
		}
	}
	// The findings left, each kept one with the reason it was kept for
	// in the user's code (rep.asBefore): analyzed again, a reason may
	// describe what the fixes wrote.
	var left bytes.Buffer
	code, done = runExportDriver(rest, stdout, &left)
	if !done {
		code = runChild(self, rest, stdout, &left)
	}
	stderr.Write(rep.asBefore(left.Bytes()))
	switch code {
	case 0:
		fmt.Fprintf(stderr, "statuspatch-lint: %s; no findings left\n", rep.count())
	case 3:
		fmt.Fprintf(stderr, "statuspatch-lint: %s; the findings above are left (fix them by hand, move the writes to generated patchers, or allow them with //statuspatch:allow <reason>)\n", rep.count())
	}
	return code
}

// fixInChildren lists the fixes (a -json run of the checker) and applies
// them (a -fix run), each in a run of its own.
func fixInChildren(self string, args, rest []string, stderr io.Writer) (rep fixReport, code int) {
	var listed, failed bytes.Buffer
	if code := runChild(self, append([]string{"-json"}, rest...), &listed, &failed); code != 0 {
		stderr.Write(failed.Bytes())
		return fixReport{}, code
	}
	rep, err := parseFixes(listed.Bytes())
	if err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: reading the findings: %v\n", err)
		return fixReport{}, 1
	}
	failed.Reset()
	if code := runChild(self, args, io.Discard, &failed); code != 0 {
		stderr.Write(failed.Bytes())
		fmt.Fprintf(stderr, "statuspatch-lint: -fix failed (exit status %d); files may be partly fixed\n", code)
		return fixReport{}, code
	}
	return rep, 0
}

// fixReport is what -fix did to each finding, one line each (`file:line:
// fixed: <fix>` or `file:line: kept: <finding>`), how many it fixed and
// kept, and the files the fixes edit.
type fixReport struct {
	lines               []string
	fixed, kept, locked int // locked: of the kept, those -fix locked
	files               []string
	// stays: the findings the fixes leave (kept and locked), by file
	// and finding (keptHead), their messages in line order.
	stays map[keptKey][]stayed
	// shifts: the lines each applied edit adds, by file (fixkept.go).
	shifts    map[string][]shift
	seenEdits map[string]bool
}

// count says how many writes -fix fixed, and kept when any.
func (r fixReport) count() string {
	s := fmt.Sprintf("fixed %d status writes", r.fixed)
	if r.fixed == 1 {
		s = "fixed 1 status write"
	}
	if r.kept > 0 {
		s += fmt.Sprintf(", kept %d", r.kept)
	}
	if r.locked > 0 {
		s += fmt.Sprintf(" (%d of them locked)", r.locked)
	}
	return s
}

// runChild runs the command again as a plain checker and returns its exit
// status.
func runChild(self string, args []string, stdout, stderr io.Writer) int {
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
	return 1
}

// jsonDiagnostic is a diagnostic in the checker's -json output.
type jsonDiagnostic struct {
	Posn           string `json:"posn"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Message string `json:"message"`
		Edits   []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

// parseFixes returns one line per diagnostic in the checker's -json
// output (package -> analyzer -> diagnostics), at the status write it is
// for: with a suggested fix, the first being the one -fix applies,
// `file:line: fixed: <fix>`, with where the fix edits when that is
// another line (the first edit outside the file's imports: the checker
// sorts a fix's edits by position, so an added import comes first);
// without, `file:line: kept: <finding>`, whose message says why. A
// diagnostic reported in a package and again in its test variant is
// listed once. files are the files the listed fixes edit.
func parseFixes(out []byte) (rep fixReport, err error) {
	var byPkg map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &byPkg); err != nil {
		return fixReport{}, err
	}
	type fixed struct {
		file  string
		line  int
		text  string
		fixed bool
		// locked: fixed by a lock the write stays a finding after
		// (lint.FixStays), counted kept.
		locked bool
	}
	var files []string
	rep.stays = map[keptKey][]stayed{}
	seen := map[string]bool{}
	var all []fixed
	for _, analyzers := range byPkg {
		var diags []jsonDiagnostic
		if err := json.Unmarshal(analyzers["statuspatch"], &diags); err != nil && analyzers["statuspatch"] != nil {
			continue // {"error": ...} entries of packages that failed
		}
		for _, d := range diags {
			at := trimColumn(d.Posn)
			file, line, _ := cutInt(at) // for the order only
			if len(d.SuggestedFixes) == 0 || len(d.SuggestedFixes[0].Edits) == 0 {
				f := fixed{file: file, line: line, text: at + ": kept: " + d.Message}
				if !seen[f.text] {
					seen[f.text] = true
					all = append(all, f)
					rep.stay(d)
				}
				continue
			}
			fix := d.SuggestedFixes[0]
			f := fixed{file: file, line: line, text: at + ": fixed: " + fix.Message, fixed: true}
			if msg, ok := strings.CutSuffix(fix.Message, lint.FixStays); ok {
				// Locked, and still reported by the run after.
				f = fixed{file: file, line: line, text: at + ": locked, kept: " + d.Message + " (" + msg + ")", locked: true}
			}
			edit := fix.Edits[0]
			for _, e := range fix.Edits {
				if e.Start >= importsEnd(e.Filename) {
					edit = e
					break
				}
			}
			if where := fmt.Sprintf("%s:%d", edit.Filename, lineOf(edit.Filename, edit.Start)); where != at {
				f.text += " (edit at " + where + ")"
			}
			if !seen[f.text] {
				seen[f.text] = true
				all = append(all, f)
				if f.locked {
					rep.stay(d)
				}
			}
			for _, e := range fix.Edits {
				rep.edited(e.Filename, e.Start, e.End, e.New)
				if !slices.Contains(files, e.Filename) {
					files = append(files, e.Filename)
				}
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].file != all[j].file {
			return all[i].file < all[j].file
		}
		return all[i].line < all[j].line || all[i].line == all[j].line && all[i].text < all[j].text
	})
	for _, f := range all {
		rep.lines = append(rep.lines, f.text)
		switch {
		case f.fixed:
			rep.fixed++
		case f.locked:
			rep.kept++
			rep.locked++
		default:
			rep.kept++
		}
	}
	slices.Sort(files)
	rep.files = files
	return rep, nil
}

// importsEnd is the byte offset in file where its package clause and
// imports end (0 if the file cannot be parsed).
func importsEnd(file string) int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
	if err != nil {
		return 0
	}
	end := f.Name.End()
	for _, d := range f.Decls {
		end = d.End()
	}
	return fset.Position(end).Offset
}

// lineOf is the line of a byte offset in file, read before the fix is
// applied (0 if the file cannot be read).
func lineOf(file string, offset int) int {
	b, err := os.ReadFile(file)
	if err != nil || offset > len(b) {
		return 0
	}
	return 1 + bytes.Count(b[:offset], []byte("\n"))
}

// trimColumn turns file:line:col into file:line.
func trimColumn(posn string) string {
	if i := strings.LastIndexByte(posn, ':'); i > 0 {
		return posn[:i]
	}
	return posn
}
