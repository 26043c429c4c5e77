package scaffold

import (
	"strconv"
	"strings"
	"testing"
)

// diffPart is a piece of init's -dry-run output: a file's diff, its two
// header lines in head and its hunks in body, or a line of text (no head).
type diffPart struct{ head, body string }

// splitDiff cuts init's -dry-run output s (from name) into its parts, a
// file's diff ending where its hunks' line counts say; in a golden, the
// line sameAs (when not "") may stand for a file's hunks.
func splitDiff(t *testing.T, name, s, sameAs string) []diffPart {
	t.Helper()
	lines := strings.SplitAfter(s, "\n")
	var parts []diffPart
	for i := 0; i < len(lines) && lines[i] != ""; {
		if !strings.HasPrefix(lines[i], "--- ") || i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			parts = append(parts, diffPart{body: lines[i]})
			i++
			continue
		}
		j := i + 2
		if sameAs != "" && j < len(lines) && lines[j] == sameAs {
			j++
		} else {
			j = skipHunks(t, name, lines, j)
		}
		parts = append(parts, diffPart{head: lines[i] + lines[i+1], body: strings.Join(lines[i+2:j], "")})
		i = j
	}
	return parts
}

// skipHunks is the index of the first line after the hunks from lines[j].
func skipHunks(t *testing.T, name string, lines []string, j int) int {
	t.Helper()
	for j < len(lines) && strings.HasPrefix(lines[j], "@@ ") {
		// @@ -start[,len] +start[,len] @@
		f := strings.Fields(lines[j])
		if len(f) != 4 || f[3] != "@@" {
			t.Fatalf("%s:%d: %q is no hunk header", name, j+1, lines[j])
		}
		old, new := hunkLen(t, name, j, f[1]), hunkLen(t, name, j, f[2])
		for j++; old > 0 || new > 0; j++ {
			if j == len(lines) || lines[j] == "" {
				t.Fatalf("%s: the file ends in a hunk", name)
			}
			switch lines[j][0] {
			case ' ':
				old, new = old-1, new-1
			case '-':
				old--
			case '+':
				new--
			default:
				t.Fatalf("%s:%d: %q is no line of a hunk", name, j+1, lines[j])
			}
		}
		if old != 0 || new != 0 {
			t.Fatalf("%s:%d: the hunk's lines are not its header's counts", name, j)
		}
	}
	return j
}

// hunkLen is the line count of a hunk header's range r (-start[,len] or
// +start[,len]; no len is 1).
func hunkLen(t *testing.T, name string, j int, r string) int {
	t.Helper()
	_, n, ok := strings.Cut(r, ",")
	if !ok {
		return 1
	}
	l, err := strconv.Atoi(n)
	if err != nil {
		t.Fatalf("%s:%d: hunk range %q: %v", name, j+1, r, err)
	}
	return l
}

// thinDiff is the -dry-run output got with each file's diff that is the
// same in base, another case's output, as the line sameAs.
func thinDiff(t *testing.T, got, base, sameAs string) string {
	t.Helper()
	baseBody := fileDiffs(t, "the base's -dry-run output", base)
	var out strings.Builder
	for _, p := range splitDiff(t, "-dry-run output", got, "") {
		if b, ok := baseBody[p.head]; ok && p.head != "" && b == p.body {
			p.body = sameAs
		}
		out.WriteString(p.head + p.body)
	}
	return out.String()
}

// fillDiff is the golden own (from name) with each sameAs line in place
// of a file's diff filled in from base, the base's golden (from baseName).
func fillDiff(t *testing.T, name, own, baseName, base, sameAs string) string {
	t.Helper()
	baseBody := fileDiffs(t, baseName, base)
	var out strings.Builder
	for _, p := range splitDiff(t, name, own, sameAs) {
		if p.head != "" && p.body == sameAs {
			b, ok := baseBody[p.head]
			if !ok {
				t.Fatalf("%s: %s has no diff of %q", name, baseName, p.head)
			}
			p.body = b
		}
		out.WriteString(p.head + p.body)
	}
	return out.String()
}

// fileDiffs are the hunks of each file's diff in -dry-run output s (from
// name), by its header lines.
func fileDiffs(t *testing.T, name, s string) map[string]string {
	t.Helper()
	diffs := map[string]string{}
	for _, p := range splitDiff(t, name, s, "") {
		if p.head != "" {
			diffs[p.head] = p.body
		}
	}
	return diffs
}
