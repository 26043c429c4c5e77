package docpages

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// The schedules/s commands of docs/benchmarks.md (the explorer's
// benchmarks, the test binaries built with go test -c and run in turn,
// testenv-server's build, startbench -one), read as a shell would run
// them, against the files: a renamed benchmark, test, sub-benchmark,
// flag, package or environment variable fails TestBenchmarksPageCommands
// without building anything (examples/realops builds real operators for
// minutes). The explorer's own lines also run, in a short form, in
// testenv/explore's TestBenchmarksPageRunsAsWritten.

// benchLine is a command line of the page that runs a schedules/s
// benchmark or a test binary, or builds what they need.
var benchLine = regexp.MustCompile(`Search|startbench|testenv-server|go test -c|\w\.test\b`)

// A docLine is a command line a page shows, at its line, with a block's
// continuation lines joined. A block runs as a script from the
// repository's root (cd changes the folder for the lines after it), or,
// when its first line does not cd, goes on where the block above left
// off; an inline span (span) runs alone from the root.
type docLine struct {
	line        int
	text        string
	first, span bool
}

// commandLines are p's lines of its sh blocks and its inline code spans
// (a table's \| unescaped, a span's line breaks spaces) that benchLine
// selects, in the page's order.
func commandLines(p page) []docLine {
	var out []docLine
	inBlock, first := false, false
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		switch {
		case strings.HasPrefix(l, "```"):
			inBlock, first = l == "```sh", true
			continue
		case inBlock:
			at := i + 1
			for strings.HasSuffix(l, "\\") && i+1 < len(p.lines) {
				i++
				l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(p.lines[i])
			}
			if benchLine.MatchString(l) {
				out = append(out, docLine{line: at, text: strings.TrimSpace(l), first: first})
			}
			first = false
			continue
		}
		// An inline span may go on to the next line of a paragraph.
		text := l
		for strings.Count(text, "`")%2 == 1 && i+1 < len(p.lines) && p.lines[i+1] != "" {
			i++
			text += " " + p.lines[i]
		}
		for j, span := range strings.Split(text, "`") {
			span = strings.ReplaceAll(span, `\|`, "|")
			if j%2 == 1 && benchLine.MatchString(span) && commandStart.MatchString(span) {
				out = append(out, docLine{line: i + 1, text: span, span: true})
			}
		}
	}
	return out
}

// commandStart: a span that is a command run from a folder, not a flag
// or a name quoted in prose ("go test -c").
var commandStart = regexp.MustCompile(`^cd `)

// A shell runs a page's command lines in its head (docLine): the folder
// each runs in, and what the lines built (go test -c -o, go build -o), by
// path.
type shell struct {
	root     fs.FS
	page     page
	dir      string
	built    map[string]string // path of a binary -> its package; test binaries' end in ".test"
	problems []string
}

func (s *shell) problem(l docLine, format string, args ...any) {
	s.problems = append(s.problems, s.page.problem(l.line, "%s: %s", l.text, fmt.Sprintf(format, args...)))
}

// run checks the commands of l.
func (s *shell) run(l docLine) {
	if l.span {
		defer func(dir string) { s.dir = dir }(s.dir)
	}
	if l.span || l.first && strings.HasPrefix(l.text, "cd ") {
		s.dir = "."
	}
	cmds, err := parseShell(l.text)
	if err != nil {
		s.problem(l, "%v", err)
		return
	}
	for _, c := range cmds {
		words := c.words
		var env []string
		for len(words) > 0 && regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`).MatchString(words[0]) {
			env, words = append(env, words[0]), words[1:]
		}
		if len(words) > 0 && (words[0] == "/usr/bin/time" || words[0] == "time") {
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
		}
		if len(words) == 0 {
			continue
		}
		switch {
		case words[0] == "cd" && len(words) == 2:
			s.dir = path.Join(s.dir, words[1])
			if !s.isDir(s.dir) {
				s.problem(l, "cd %s: no folder %s", words[1], s.dir)
				return
			}
		case words[0] == "go" && len(words) > 1 && (words[1] == "test" || words[1] == "build"):
			s.goCommand(l, words[1], words[2:], env)
		case strings.Contains(words[0], "/"):
			s.runBinary(l, words[0], words[1:], env)
		}
	}
}
