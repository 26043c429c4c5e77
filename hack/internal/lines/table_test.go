package lines

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `# comment
v0.22 v0.22.0 v0.34.0 go1.24.13 1.34 floor # trailing comment
v0.23 v0.23.3 v0.35.4 go1.25.14 1.35 install
v0.24 v0.24.1 v0.36.6 go1.26.8  1.36 -
v0.25 v0.25.2 v0.37.2 go1.26.8  1.37 workspace
v0.21 v0.21.0 -       go1.24.13 -    below
`

func parse(t *testing.T, s string) Table {
	t.Helper()
	tab, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func names(ls []Line) string {
	var n []string
	for _, l := range ls {
		n = append(n, l.Name)
	}
	return strings.Join(n, " ")
}

func TestSelect(t *testing.T) {
	tab := parse(t, sample)
	for _, c := range []struct {
		sel  []string
		want string
	}{
		{nil, "v0.22 v0.23 v0.24 v0.25"},
		{[]string{"supported"}, "v0.22 v0.23 v0.24 v0.25"},
		{[]string{"older"}, "v0.22 v0.23 v0.24"},
		{[]string{"install"}, "v0.23"},
		{[]string{"floor", "workspace"}, "v0.22 v0.25"},
		{[]string{"below"}, "v0.21"},
		{[]string{"v0.24", "v0.22", "v0.24"}, "v0.24 v0.22"},
		{[]string{"supported", "below"}, "v0.22 v0.23 v0.24 v0.25 v0.21"},
		{[]string{"v0.23", "below"}, "v0.23 v0.21"},
	} {
		ls, err := tab.Select(c.sel...)
		if err != nil {
			t.Errorf("Select(%q): %v", c.sel, err)
			continue
		}
		if got := names(ls); got != c.want {
			t.Errorf("Select(%q) = %s, want %s", c.sel, got, c.want)
		}
	}
	if _, err := tab.Select("v0.30"); err == nil || !strings.Contains(err.Error(), "its lines are v0.22 v0.23 v0.24 v0.25 v0.21") {
		t.Errorf("Select(v0.30): %v, want an error listing the lines", err)
	}
}

func TestDerived(t *testing.T) {
	tab := parse(t, sample)
	l, _ := tab.Role(Install)
	if got, want := l.Row(), "v0.23 v0.23.3 v0.35.4 go1.25.14 1.25.0 1.35 install"; got != want {
		t.Errorf("Row = %q, want %q", got, want)
	}
	if l.GoMinor() != "1.25" || l.K8sMinor() != "v0.35" || l.Release() != "1.35.4" {
		t.Errorf("GoMinor %s, K8sMinor %s, Release %s; want 1.25, v0.35, 1.35.4", l.GoMinor(), l.K8sMinor(), l.Release())
	}
	if got := tab.Assets(); got != "1.35.x" {
		t.Errorf("Assets = %s, want 1.35.x", got)
	}
	b, _ := tab.Role(Below)
	if got, want := b.Row(), "v0.21 v0.21.0 - go1.24.13 1.24.0 - below"; got != want {
		t.Errorf("below's Row = %q, want %q", got, want)
	}
	gm := l.GoMod("example.com/widgets")
	for _, want := range []string{"module example.com/widgets\n\ngo 1.25.0\n", "\tsigs.k8s.io/controller-runtime v0.23.3\n", "\tk8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.35.4\n"} {
		if !strings.Contains(gm, want) {
			t.Errorf("GoMod lacks %q:\n%s", want, gm)
		}
	}
	md := tab.Markdown()
	if !strings.Contains(md, "| v0.22 (the floor) | v0.22.0 | v0.34.0 | go1.24.13 |\n") || strings.Contains(md, "v0.21") {
		t.Errorf("Markdown: the floor's row missing, or the line below in it:\n%s", md)
	}
}

// Each broken table is refused, saying why.
func TestParseRefuses(t *testing.T) {
	row := func(s string) string { return strings.Replace(sample, "v0.24 v0.24.1 v0.36.6 go1.26.8  1.36 -", s, 1) }
	for _, c := range []struct{ table, want string }{
		{row("v0.24 v0.24.1 v0.36.6 go1.26.8"), "4 fields, want 6"},
		{row("v0.24 v0.23.1 v0.36.6 go1.26.8 1.36 -"), "controller-runtime v0.23.1 is not a version of the line"},
		{row("v0.24 v0.24.1 v0.36 go1.26.8 1.36 -"), "k8s.io v0.36 is not a version"},
		{row("v0.24 v0.24.1 v0.36.6 go1.26 1.36 -"), "go go1.26 is not a toolchain"},
		{row("v0.24 v0.24.1 v0.36.6 go1.26.8 1.35 -"), "envtest 1.35 is not k8s.io v0.36.6's release (1.36)"},
		{row("v0.24 v0.24.1 v0.36.6 go1.26.8 1.36 newest"), `unknown role "newest"`},
		{row("v0.24 v0.24.1 v0.36.6 go1.26.8 1.36 install"), "2 lines are install (v0.23 v0.24), want one"},
		{row("v0.20 v0.20.1 v0.36.6 go1.26.8 1.36 -"), "line v0.20 after v0.23: the supported lines go oldest first"},
		{row("v0.23 v0.23.1 v0.35.6 go1.26.8 1.35 -"), "line v0.23 twice"},
		{strings.Replace(sample, "v0.22 v0.22.0 v0.34.0 go1.24.13 1.34 floor", "v0.22 v0.22.0 v0.34.0 go1.24.13 1.34 -", 1), "0 lines are floor"},
		{strings.Replace(sample, "-    below", "1.34 below", 1), "the line below the floor has one role"},
		{sample + "v0.26 v0.26.0 v0.38.0 go1.26.8 1.38 -\n", "is not the last row"},
		{strings.Replace(sample, "v0.21 v0.21.0", "v0.23 v0.23.0", 1), "line v0.23 twice"},
	} {
		_, err := Parse(strings.NewReader(c.table))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse: %v, want an error with %q", err, c.want)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "lines.txt")
	if err := os.WriteFile(good, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := ReadFile(good)
	if err != nil || len(tab.Lines) != 5 {
		t.Fatalf("ReadFile(%s) = %d lines, %v; want the sample's 5", good, len(tab.Lines), err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want fs.ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("v0.22 v0.22.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Errorf("ReadFile of a bad table: %v, want an error starting with its path", err)
	}
}
