package lint

import (
	_ "embed"
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// packageDoc is this package's doc.go, the one home of the analyzer's
// documentation (as in golang.org/x/tools/go/analysis/passes).
//
//go:embed doc.go
var packageDoc string

// analyzerDoc returns the "# Analyzer <name>" section of the package
// comment in src, in the form analysis.Analyzer.Doc wants: the summary
// from the "<name>: summary" line, a blank line, then the rest of the
// section up to the next heading.
func analyzerDoc(src, name string) (string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", fmt.Errorf("analyzer doc of %s: %w", name, err)
	}
	if f.Doc == nil {
		return "", fmt.Errorf("analyzer doc of %s: doc.go has no package comment", name)
	}
	_, section, ok := strings.Cut(f.Doc.Text(), "# Analyzer "+name+"\n")
	if !ok {
		return "", fmt.Errorf("analyzer doc of %s: no %q heading in the package comment", name, "# Analyzer "+name)
	}
	section = strings.TrimLeft(section, "\n")
	if i := strings.Index(section, "\n# "); i >= 0 {
		section = section[:i]
	}
	summary, body, _ := strings.Cut(section, "\n")
	summary, ok = strings.CutPrefix(summary, name+": ")
	if !ok {
		return "", fmt.Errorf("analyzer doc of %s: the section does not start with %q", name, name+": ")
	}
	return strings.TrimSpace(summary) + "\n\n" + strings.TrimSpace(body), nil
}

// mustAnalyzerDoc is analyzerDoc for the embedded doc.go, which the tests
// check: a malformed doc.go is a bug of this package, not bad input.
func mustAnalyzerDoc(name string) string {
	doc, err := analyzerDoc(packageDoc, name)
	if err != nil {
		panic(err)
	}
	return doc
}
