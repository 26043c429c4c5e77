package main

import (
	"bytes"
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
// left as it is.
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
		sort.SliceStable(before, func(i, j int) bool {
			return before[i].line < before[j].line || before[i].line == before[j].line && before[i].col < before[j].col
		})
		sort.SliceStable(now, func(i, j int) bool {
			return now[i].line < now[j].line || now[i].line == now[j].line && now[i].col < now[j].col
		})
		for n, a := range now {
			nl := ""
			if bytes.HasSuffix(lines[a.i], []byte("\n")) {
				nl = "\n"
			}
			lines[a.i] = []byte(k.file + ":" + strconv.Itoa(a.line) + ":" + strconv.Itoa(a.col) + ": " + before[n].msg + nl)
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
