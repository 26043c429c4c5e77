package lint

import (
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// Analyzer.Doc is the "# Analyzer statuspatch" section of doc.go, not a
// second copy.
func TestAnalyzerDocFromDocGo(t *testing.T) {
	doc := Analyzer.Doc
	summary, body, _ := strings.Cut(doc, "\n\n")
	if summary != "report handwritten status writes; audit their optimistic lock" {
		t.Errorf("summary = %q", summary)
	}
	for _, want := range []string{"With -audit, every status write", "With -ci (which implies -audit)", "//statuspatch:allow migration job"} {
		if !strings.Contains(body, want) {
			t.Errorf("Doc lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "# Files") || strings.Contains(doc, "analyzer.go:") {
		t.Errorf("Doc runs past its section into the file map:\n%s", doc)
	}
}

func TestAnalyzerDocErrors(t *testing.T) {
	for name, src := range map[string]string{
		"no comment":   "package x\n",
		"no heading":   "// Package x.\npackage x\n",
		"no summary":   "// Package x.\n//\n// # Analyzer a\n//\n// text\npackage x\n",
		"not go":       "// # Analyzer a\n",
		"wrong prefix": "// Package x.\n//\n// # Analyzer a\n//\n// b: summary\npackage x\n",
	} {
		if doc, err := analyzerDoc(src, "a"); err == nil {
			t.Errorf("%s: analyzerDoc = %q, want an error", name, doc)
		}
	}
	doc, err := analyzerDoc("// Package x.\n//\n// # Analyzer a\n//\n// a: sum\n//\n// body\n//\n// # Next\n//\n// other\npackage x\n", "a")
	if err != nil || doc != "sum\n\nbody" {
		t.Errorf("analyzerDoc = %q, %v; want %q", doc, err, "sum\n\nbody")
	}
}

// Findings come out in file-name order even when the files were added to
// the FileSet in another order (go/packages parses files in parallel and
// adds them as they finish): token.Pos order alone is not source order.
func TestReportInSourceOrderAcrossFiles(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("pkg/b.go", -1, 100)
	a := fset.AddFile("pkg/a.go", -1, 100)
	diags := []analysis.Diagnostic{
		{Pos: b.Pos(10), Message: "b10"},
		{Pos: a.Pos(50), Message: "a50"},
		{Pos: a.Pos(5), Message: "a5"},
		{Pos: b.Pos(2), Message: "b2"},
	}
	var got []string
	pass := &analysis.Pass{Fset: fset, Report: func(d analysis.Diagnostic) { got = append(got, d.Message) }}
	reportInSourceOrder(pass, diags)
	if strings.Join(got, " ") != "a5 a50 b2 b10" {
		t.Errorf("order = %v, want [a5 a50 b2 b10]", got)
	}
}
