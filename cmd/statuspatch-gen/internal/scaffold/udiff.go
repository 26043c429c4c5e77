package scaffold

import (
	"fmt"
	"strings"
)

// unifiedDiff is a unified diff (3 lines of context, git's a/ b/ names)
// from old to new of the file at path; del marks a removal, an empty old a
// new file. The lines are matched by a longest common subsequence: the
// files init edits are a few hundred lines.
func unifiedDiff(path, old, new string, del bool) string {
	if old == new && !del {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	if del {
		b = nil
	}
	from, to := "a/"+path, "b/"+path
	if old == "" {
		from = "/dev/null"
	}
	if del {
		to = "/dev/null"
	}
	ops := diffOps(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// a hunk: from ctx lines before this change to ctx lines after the
		// last change closer than 2*ctx lines of context to the next
		start := max(0, i-ctx)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		end = min(len(ops), end+ctx+1)
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			out.WriteByte('\n')
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// diffOp is one line of the edit script; a and b are the 0-based line
// numbers in old and new before it.
type diffOp struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int
}

func diffOps(a, b []string) []diffOp {
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:]
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], i, j})
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] > lcs[i+1][j]):
			ops = append(ops, diffOp{'+', b[j], i, j})
			j++
		default:
			ops = append(ops, diffOp{'-', a[i], i, j})
			i++
		}
	}
	return ops
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lineMap maps a 1-based line of old to the line it is in new: a kept
// line to where it went, a removed one to the line that took its place.
func lineMap(old, new string) func(int) int {
	at := map[int]int{}
	for _, op := range diffOps(splitLines(old), splitLines(new)) {
		if op.kind != '+' {
			if _, ok := at[op.a+1]; !ok {
				at[op.a+1] = op.b + 1
			}
		}
	}
	return func(line int) int {
		if l, ok := at[line]; ok {
			return l
		}
		return line
	}
}
