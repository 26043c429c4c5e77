package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// keptKey is a finding the fixes leave: its file and keptHead.
type keptKey struct{ file, head string }

// stayed is one finding the fixes leave, as the run before them reported
// it: where, and its message.
type stayed struct {
	line, col int
	msg       string
}

// keptHead is a finding's message without the reason it gives in
// parentheses (" (not moved to the patcher: ...", " (no fix: ..."): what
// the finding is, the same before and after the fixes.
func keptHead(msg string) string {
	head, _, _ := strings.Cut(msg, " (")
	return head
}

// stay records a diagnostic of the listing run that the fixes leave.
func (r *fixReport) stay(d jsonDiagnostic) {
	file, line, col, ok := cutPosn(d.Posn)
	if !ok {
		return
	}
	k := keptKey{file, keptHead(d.Message)}
	r.stays[k] = append(r.stays[k], stayed{line, col, d.Message})
}

// asBefore rewrites the report of the run after the fixes (text, one
// `file:line:col: message` a finding) so that each finding the fixes
// left gives the reason the run before them gave, on the user's code:
// analyzed again, a kept write's reason may name what the fixes wrote (a
// patcher made at a line -fix added) in place of what keeps it (a caller
// in another package, a test file). The i-th finding of a file and
// keptHead after is the i-th before (the fixes move no finding past
// another of the same kind); where their numbers differ, the report is
// left as it is. The lines the carried reason names are renumbered to
// the code the fixes wrote (renumber): a second run reads that code.
func (r fixReport) asBefore(out []byte) []byte {
	lines := bytes.SplitAfter(out, []byte("\n"))
	type at struct {
		i         int // index in lines
		line, col int
		head      string
	}
	after := map[keptKey][]at{}
	for i, l := range lines {
		file, line, col, msg, ok := cutFinding(strings.TrimSuffix(string(l), "\n"))
		if !ok {
			continue
		}
		k := keptKey{file, keptHead(msg)}
		if _, kept := r.stays[k]; kept {
			after[k] = append(after[k], at{i, line, col, msg})
		}
	}
	for k, now := range after {
		before := append([]stayed(nil), r.stays[k]...)
		if len(before) != len(now) {
			continue
		}
		// Two at one place in stays' order, which is the -json output's
		// packages' (a map): by message, the same each run.
		sort.SliceStable(before, func(i, j int) bool {
			a, b := before[i], before[j]
			return a.line < b.line || a.line == b.line && (a.col < b.col || a.col == b.col && a.msg < b.msg)
		})
		sort.SliceStable(now, func(i, j int) bool {
			return now[i].line < now[j].line || now[i].line == now[j].line && now[i].col < now[j].col
		})
		for n, a := range now {
			nl := ""
			if bytes.HasSuffix(lines[a.i], []byte("\n")) {
				nl = "\n"
			}
			lines[a.i] = []byte(k.file + ":" + strconv.Itoa(a.line) + ":" + strconv.Itoa(a.col) + ": " + r.renumber(k.file, before[n].msg) + nl)
		}
	}
	return bytes.Join(lines, nil)
}

// cutPosn splits file:line:col.
func cutPosn(posn string) (file string, line, col int, ok bool) {
	rest, c, ok1 := cutLast(posn)
	file, l, ok2 := cutLast(rest)
	return file, l, c, ok1 && ok2
}

// cutLast splits s at its last colon, the part after it a number.
func cutLast(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err == nil
}

// cutFinding splits a line of the text report, `file:line:col: message`.
func cutFinding(l string) (file string, line, col int, msg string, ok bool) {
	// The file may hold ": " (a Windows drive, a folder's name): the
	// position is the first "name:N:N: " whose numbers parse.
	for i := 0; ; {
		j := strings.Index(l[i:], ": ")
		if j < 0 {
			return "", 0, 0, "", false
		}
		posn := l[:i+j]
		if file, line, col, ok := cutPosn(posn); ok {
			return file, line, col, l[i+j+2:], true
		}
		i += j + 2
	}
}

// A shift is one edit the fixes apply to a file, in the file's lines
// before them: the lines from..to (the edit's first and last) become
// to+added.
type shift struct{ from, to, added int }

// edited records an edit of the fix -fix applies (start..end of file,
// replaced by text), read before it is applied; the same edit listed by
// several findings (a group's shared patcher, an import) is applied once.
func (r *fixReport) edited(file string, start, end int, text string) {
	b, err := os.ReadFile(file)
	if err != nil || start > end || end > len(b) {
		return
	}
	from, to := 1+bytes.Count(b[:start], []byte("\n")), 1+bytes.Count(b[:end], []byte("\n"))
	e := shift{from, to, strings.Count(text, "\n") - bytes.Count(b[start:end], []byte("\n"))}
	if r.shifts == nil {
		r.shifts = map[string][]shift{}
	}
	if e.added == 0 || r.applied(file, start, end, text) {
		return
	}
	r.shifts[file] = append(r.shifts[file], e)
}

// applied reports whether the edit start..end of file with text was
// recorded already (and records it).
func (r *fixReport) applied(file string, start, end int, text string) bool {
	k := file + "\x00" + strconv.Itoa(start) + "\x00" + strconv.Itoa(end) + "\x00" + text
	if r.seenEdits == nil {
		r.seenEdits = map[string]bool{}
	}
	if r.seenEdits[k] {
		return true
	}
	r.seenEdits[k] = true
	return false
}

// lineAfter is line of file, before the fixes, in the file they wrote;
// a line inside an edit is the edit's first.
func (r fixReport) lineAfter(file string, line int) int {
	n := line
	for _, e := range r.shifts[file] {
		switch {
		case e.to < line:
			n += e.added
		case e.from < line && line <= e.to:
			n -= line - e.from
		}
	}
	return n
}

// lineRef is how a reason names a line: "line N" of its own file, or
// "name.go:N" of another.
var lineRef = regexp.MustCompile(`\bline (\d+)\b|\b([\w.-]+\.go):(\d+)\b`)

// renumber rewrites the lines msg, a reason of a finding in file, names
// to the lines of the code the fixes wrote: "line N" of file, "name.go:N"
// of a file of the same folder the fixes edited.
func (r fixReport) renumber(file, msg string) string {
	if len(r.shifts) == 0 {
		return msg
	}
	return lineRef.ReplaceAllStringFunc(msg, func(ref string) string {
		m := lineRef.FindStringSubmatch(ref)
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			return "line " + strconv.Itoa(r.lineAfter(file, n))
		}
		other := filepath.Join(filepath.Dir(file), m[2])
		if _, ok := r.shifts[other]; !ok {
			return ref
		}
		n, _ := strconv.Atoi(m[3])
		return m[2] + ":" + strconv.Itoa(r.lineAfter(other, n))
	})
}
