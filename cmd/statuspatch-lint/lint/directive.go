package lint

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

const directivePrefix = "statuspatch:allow"

// directive is a "//statuspatch:allow <reason>" comment.
type directive struct {
	reason string
}

// directives indexes the allow directives of a package by file and line.
type directives map[string]map[int]directive

// collectDirectives finds the allow directives in the checked files and
// reports those without a reason.
func collectDirectives(pass *analysis.Pass, files *fileSet, report func(analysis.Diagnostic)) directives {
	ds := directives{}
	for _, f := range pass.Files {
		if !files.checked(f.FileStart) {
			continue
		}
		for _, group := range f.Comments {
			for _, c := range group.List {
				reason, ok := parseDirective(c.Text)
				if !ok {
					continue
				}
				if reason == "" {
					report(analysis.Diagnostic{Pos: c.Pos(), Category: categoryAllow, Message: "statuspatch:allow needs a reason"})
					continue
				}
				p := pass.Fset.Position(c.Pos())
				if ds[p.Filename] == nil {
					ds[p.Filename] = map[int]directive{}
				}
				ds[p.Filename][p.Line] = directive{reason: reason}
			}
		}
	}
	return ds
}

// parseDirective recognizes "//statuspatch:allow reason" (and the
// "// statuspatch:allow reason" spelling gofmt leaves alone).
func parseDirective(text string) (reason string, ok bool) {
	body, isLine := strings.CutPrefix(text, "//")
	if !isLine {
		return "", false
	}
	body = strings.TrimLeft(body, " \t")
	rest, found := strings.CutPrefix(body, directivePrefix)
	if !found || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return "", false
	}
	// A trailing comment ("//statuspatch:allow // TODO") is not a reason.
	if i := strings.Index(rest, "//"); i >= 0 {
		rest = rest[:i]
	}
	return strings.TrimSpace(rest), true
}

// at returns the directive that allows a write at p: on its line or the
// line above.
func (ds directives) at(p token.Position) (directive, bool) {
	lines := ds[p.Filename]
	if d, ok := lines[p.Line]; ok {
		return d, true
	}
	d, ok := lines[p.Line-1]
	return d, ok
}
