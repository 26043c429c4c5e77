package docpages

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shellCommand is one simple command of a documented shell line, as
// mvdan.cc/sh parses it: its words with their quotes removed (an
// assignment before the command, GOWORK=off, is a word of its own,
// first) and its text as a shell prints it (quotes kept, spaces
// normalised, no comment).
type shellCommand struct {
	words []string
	text  string
}

// parseShell splits line into its simple commands, in order: those
// joined by &&, ||, ; and |, and those of a subshell's parentheses. A
// line the shell cannot parse is an error naming it.
func parseShell(line string) ([]shellCommand, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("%q: not a shell line: %w", line, err)
	}
	var out []shellCommand
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		var c shellCommand
		for _, a := range call.Assigns {
			c.words = append(c.words, a.Name.Value+"="+wordText(a.Value))
		}
		for _, w := range call.Args {
			c.words = append(c.words, wordText(w))
		}
		var b strings.Builder
		if err := syntax.NewPrinter(syntax.Minify(false)).Print(&b, call); err == nil {
			c.text = strings.Join(strings.Fields(b.String()), " ")
		}
		if len(c.words) > 0 {
			out = append(out, c)
		}
		return false
	})
	return out, nil
}

// wordText is w's text as the command receives it where no expansion
// happens: the values of its literal and quoted parts joined; any other
// part (a $VAR, a command substitution) as written.
func wordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					printNode(&b, q)
				}
			}
		default:
			printNode(&b, p)
		}
	}
	return b.String()
}

func printNode(b *strings.Builder, n syntax.Node) {
	_ = syntax.NewPrinter().Print(b, n)
}
