package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

// The repository's root, from this folder.
const root = "../.."

func table(t *testing.T) lines.Table {
	t.Helper()
	tab, err := lines.ReadFile(filepath.Join(root, "hack", "lines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gomod(t *testing.T, path string) *modfile.File {
	t.Helper()
	f, err := modfile.Parse(path, []byte(read(t, path)), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func required(f *modfile.File, path string) string {
	for _, r := range f.Require {
		if r.Mod.Path == path {
			return r.Mod.Version
		}
	}
	return ""
}

// TestGoModFiles: the published go.mod files require the floor, the
// examples (the workspace) the workspace's line, and hack/compat holds the
// matrix's go.mod files of exactly the table's lines.
func TestGoModFiles(t *testing.T) {
	tab := table(t)
	floor, _ := tab.Role(lines.Floor)
	ws, _ := tab.Role(lines.Workspace)
	below, _ := tab.Role(lines.Below)
	want := func(file, path, v string) {
		t.Helper()
		if got := required(gomod(t, file), path); got != v {
			t.Errorf("%s requires %s %s; hack/lines.txt says %s", file, path, got, v)
		}
	}
	for _, file := range []string{"go.mod", "testenv/go.mod"} {
		if got := gomod(t, file).Go.Version; got != floor.GoLine() {
			t.Errorf("%s says go %s; the floor's Go (hack/lines.txt) is %s", file, got, floor.GoLine())
		}
		want(file, "sigs.k8s.io/controller-runtime", floor.CR)
		for _, p := range []string{"api", "apimachinery", "client-go"} {
			want(file, "k8s.io/"+p, floor.K8s)
		}
	}
	for _, p := range []string{"apiextensions-apiserver", "apiserver"} {
		want("testenv/go.mod", "k8s.io/"+p, floor.K8s)
	}
	want("examples/go.mod", "sigs.k8s.io/controller-runtime", ws.CR)
	want("examples/go.mod", "k8s.io/api", ws.K8s)

	dirs, err := os.ReadDir(filepath.Join(root, "hack", "compat"))
	if err != nil {
		t.Fatal(err)
	}
	var got, wantDirs []string
	for _, d := range dirs {
		got = append(got, d.Name())
	}
	for _, l := range tab.Supported() {
		wantDirs = append(wantDirs, l.Name)
		for _, m := range []string{"root", "testenv", "goldens"} {
			file := "hack/compat/" + l.Name + "/" + m + ".mod"
			want(file, "sigs.k8s.io/controller-runtime", l.CR)
			want(file, "k8s.io/apimachinery", l.K8s)
		}
	}
	wantDirs = append(wantDirs, "below")
	slices.Sort(got)
	slices.Sort(wantDirs)
	if !slices.Equal(got, wantDirs) {
		t.Errorf("hack/compat holds %q, the table's lines are %q: run hack/compat.sh update (and remove a dropped line's folder)", got, wantDirs)
	}
	f := gomod(t, "hack/compat/below/root.mod")
	ok := false
	for _, r := range f.Replace {
		ok = ok || r.Old.Path == "sigs.k8s.io/controller-runtime" && r.New.Version == below.CR
	}
	if !ok {
		t.Errorf("hack/compat/below/root.mod does not replace controller-runtime by %s, the line below the floor: run hack/compat.sh update", below.CR)
	}
}

// TestCompatibilityDoc: docs/compatibility.md's table is the table's, and
// each sentence that repeats a line says what the table says.
func TestCompatibilityDoc(t *testing.T) {
	const doc = "docs/compatibility.md"
	tab := table(t)
	text := read(t, doc)
	_, block, ok := strings.Cut(text, "<!-- compat-lines:begin -->\n")
	block, _, ok2 := strings.Cut(block, "<!-- compat-lines:end -->")
	if !ok || !ok2 {
		t.Fatalf("%s has no <!-- compat-lines:begin --> ... <!-- compat-lines:end --> block", doc)
	}
	if block != tab.Markdown() {
		t.Errorf("%s's table is not hack/lines.txt's; between its compat-lines markers put `go run ./lines markdown` (in hack/):\n%s", doc, tab.Markdown())
	}
	flat := strings.Join(strings.Fields(text), " ")
	for _, p := range docPhrases(tab) {
		if !strings.Contains(flat, p) {
			t.Errorf("%s does not say %q (hack/lines.txt's lines)", doc, p)
		}
	}
}

// docPhrases are the sentences of docs/compatibility.md that repeat lines,
// as the table makes them.
func docPhrases(tab lines.Table) []string {
	sup := tab.Supported()
	first, last := sup[0], sup[len(sup)-1]
	floor, _ := tab.Role(lines.Floor)
	inst, _ := tab.Role(lines.Install)
	below, _ := tab.Role(lines.Below)
	older, _ := tab.Select(lines.Older)
	var adopt []string
	for _, l := range older {
		adopt = append(adopt, l.Name+" with Go "+l.GoMinor())
	}
	return []string{
		"controller-runtime " + first.Name + " to " + last.Name + ", k8s.io " + first.K8sMinor() + " to " + last.K8sMinor() + ", and Go " + floor.GoMinor() + " and newer",
		"go " + floor.GoLine() + ", controller-runtime " + floor.CR + ", k8s.io " + floor.K8s,
		"`k8s.io/apiserver` " + floor.K8s,
		"controller-runtime " + inst.CR + ", k8s.io " + inst.K8s + " and `go " + inst.GoLine() + "`",
		"at each older line (" + strings.Join(adopt, ", ") + ")",
		"pins controller-runtime below " + floor.Name,
		"checks it with controller-runtime " + below.CR,
		"pins k8s.io below " + floor.K8sMinor(),
	}
}

// What looks like a line: a controller-runtime or k8s.io version (v0.2N,
// v0.3N, with or without a patch), a Go version (Go 1.NN, go 1.NN.0,
// go1.NN.P) and a Kubernetes release (1.3N, 1.3N.x, 1.3N.P). Widen them
// when the table outgrows them (TestPatternsCoverTheTable).
var (
	goVersion  = regexp.MustCompile(`\b[Gg]o ?(1\.[0-9]{2}(\.[0-9]+)?)`)
	modVersion = regexp.MustCompile(`(^|[^\w.])(v0\.[23][0-9](\.[0-9]+)?)\b`)
	k8sRelease = regexp.MustCompile(`(^|[^\w.])(1\.3[0-9](\.([0-9]+|x))?)\b`)
)

// A token is a version found in a line of text: its kind (go, mod, k8s)
// and value (1.25.0, v0.23.3, 1.35.x).
type token struct{ kind, value string }

func tokens(line string) []token {
	var out []token
	for _, m := range goVersion.FindAllStringSubmatchIndex(line, -1) {
		out = append(out, token{"go", line[m[2]:m[3]]})
		line = line[:m[0]] + strings.Repeat(" ", m[1]-m[0]) + line[m[1]:]
	}
	for _, p := range []struct {
		kind string
		re   *regexp.Regexp
	}{{"mod", modVersion}, {"k8s", k8sRelease}} {
		for _, m := range p.re.FindAllStringSubmatch(line, -1) {
			out = append(out, token{p.kind, m[2]})
		}
	}
	return out
}

func TestPatternsCoverTheTable(t *testing.T) {
	for _, l := range table(t).Lines {
		for _, s := range []string{l.Name, l.CR, l.K8s, "go" + strings.TrimPrefix(l.Toolchain, "go"), "Go " + l.GoMinor(), l.Envtest, l.Release()} {
			if s == "-" || s == "1.-" {
				continue
			}
			if len(tokens(" "+s+" ")) != 1 {
				t.Errorf("%s of line %s does not look like a line to this test's patterns: widen them", s, l.Name)
			}
		}
	}
	got := tokens("go1.26.8 Go 1.24, go 1.25.0 (v0.22 v0.34.0 1.35.x 1.35.4) x/mod v0.42.0 go1.2[6-9]* v1.36.12")
	want := []token{{"go", "1.26.8"}, {"go", "1.24"}, {"go", "1.25.0"}, {"mod", "v0.22"}, {"mod", "v0.34.0"}, {"k8s", "1.35.x"}, {"k8s", "1.35.4"}}
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %v, want %v", got, want)
	}
}
