package docpages

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// markerBlock returns the lines between <!-- NAME:begin --> and <!-- NAME:end
// --> in text, code fences and blank lines dropped.
func markerBlock(t *testing.T, file, text, name string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "<!-- "+name+":begin -->")
	if ok {
		rest, _, ok = strings.Cut(rest, "<!-- "+name+":end -->")
	}
	if !ok {
		t.Fatalf("%s has no <!-- %s:begin --> ... <!-- %s:end --> block", file, name, name)
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// commands is line's simple commands as a shell prints them (quotes
// kept, spaces normalised, a comment dropped), split where &&, || and ;
// join them.
func commands(t *testing.T, line string) []string {
	t.Helper()
	cmds, err := parseShell(line)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cmds {
		out = append(out, c.text)
	}
	return out
}

// TestREADMEAdoptBlockIsTheRoute: the README's "Adopt it" block runs the
// steps the newcomer route runs (hack/installroute's newcomer, in CI),
// command for command: the install block's statuspatch-gen line, then
// docs/kubebuilder.md's steps 2 and 3, its fix block and step 5's make
// test and make lint. A command added to, changed in or dropped from
// either page fails here, naming it.
func TestREADMEAdoptBlockIsTheRoute(t *testing.T) {
	root := filepath.Join("..", "..")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, kb := read("README.md"), read("docs/kubebuilder.md")
	var got []string
	for _, l := range markerBlock(t, "README.md", readme, "adopt") {
		got = append(got, commands(t, l)...)
	}

	var genInstall string
	for _, l := range markerBlock(t, "README.md", readme, "install") {
		if strings.Contains(l, "go install") && strings.Contains(l, "/cmd/statuspatch-gen@") {
			genInstall = l
		}
	}
	if genInstall == "" {
		t.Fatal("README.md's install block installs no statuspatch-gen")
	}
	steps, _, _ := strings.Cut(kb[strings.Index(kb, "## Steps"):], "\n## ")
	for _, want := range []string{"`bin/statuspatch-gen init`", "`make generate`", "`make test`", "`make lint`"} {
		if !strings.Contains(steps, want) {
			t.Fatalf("docs/kubebuilder.md's Steps no longer say %s; README.md's adopt block runs it", want)
		}
	}
	want := commands(t, genInstall)
	want = append(want, "bin/statuspatch-gen init", "make generate")
	for _, l := range markerBlock(t, "docs/kubebuilder.md", kb, "fix") {
		want = append(want, commands(t, l)...)
	}
	want = append(want, "make test lint")
	if !slices.Equal(got, want) {
		t.Errorf("README.md's adopt block runs\n  %s\nthe route's steps (install block, docs/kubebuilder.md's Steps) are\n  %s",
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if regexp.MustCompile(`@latest\b`).MatchString(strings.Join(got, "\n")) {
		t.Error("README.md's adopt block installs @latest")
	}
	// -fix exits 3 while a write is left to the user: go mod tidy runs
	// whatever its exit, so it is never chained after it with &&.
	for _, l := range markerBlock(t, "README.md", readme, "adopt") {
		if code, _, _ := strings.Cut(l, " #"); regexp.MustCompile(`statuspatch-lint -fix [^;]*&&`).MatchString(code) {
			t.Errorf("README.md's adopt block runs what follows -fix only when -fix exits 0, never while a finding is left (exit 3):\n  %s", l)
		}
	}
}

// TestREADMEFirstScreen: README.md's first 40 lines hold what an adopter
// needs (issue 74): the install and init block and the usage example
// under "## Using it", whole.
func TestREADMEFirstScreen(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	end := func(what string, from func(string) bool) int {
		started := false
		for i, l := range lines {
			switch {
			case !started && from(l):
				started = true
			case started && strings.HasPrefix(l, "```") && l != "```go" && l != "```sh":
				return i + 1
			}
		}
		t.Fatalf("README.md has no %s", what)
		return 0
	}
	const screen = 40
	if n := end("adopt block", func(l string) bool { return l == "<!-- adopt:begin -->" }); n > screen {
		t.Errorf("README.md:%d: the install and init block ends after line %d", n, screen)
	}
	if n := end("## Using it", func(l string) bool { return l == "## Using it" }); n > screen {
		t.Errorf("README.md:%d: the usage example ends after line %d", n, screen)
	}
}
