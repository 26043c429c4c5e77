package docpages

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// The facts the docs repeat from the code (hack/check-docs.sh, make lint:
// TestDocsRepeatTheCode), each a function of the pages' text, so that its
// tests run it on samples:
//   - the Go version a user needs ("Go 1.NN or newer") is the go line of
//     the runtime's go.mod, and the one this repository builds with ("Go
//     (1.NN)") is go.work's (goVersions);
//   - docs/kubebuilder.md's tool versions are the tool modules' pins
//     (toolVersions; docs/compatibility.md's lines are hack/lines' tests');
//   - relative links point to files that exist (links);
//   - no code block runs go vet with a -vettool that is empty when the
//     tool is missing ($(which ...), $(go tool -n ...)): go vet then checks
//     nothing and exits 0 (silentVet);
//   - one route per thing: a statuspatch-gen paths=./api/... line or a
//     lint-status target outside docs/kubebuilder.md's makefile block, or a
//     go install of a statuspatch tool outside README.md's install block,
//     is word for word the home's (better: a link); nothing installs a
//     statuspatch module @latest (homes).

// A page is a Markdown file: its path from the repository's root, and its
// lines.
type page struct {
	path  string
	lines []string
}

func newPage(path, text string) page { return page{path, strings.Split(text, "\n")} }

// problem is "path:line: what is wrong" (no line: "path: ...").
func (p page) problem(line int, format string, args ...any) string {
	at := p.path
	if line > 0 {
		at = fmt.Sprintf("%s:%d", p.path, line)
	}
	return at + ": " + fmt.Sprintf(format, args...)
}

// minorOf is 1.NN of a go line's version.
func minorOf(v string) string {
	f := strings.SplitN(v, ".", 3)
	return strings.Join(f[:min(2, len(f))], ".")
}

var (
	needsGoRE  = regexp.MustCompile(`Go 1\.[0-9]+ or (newer|later)`)
	buildsGoRE = regexp.MustCompile(`Go \(1\.[0-9]+[,)]`)
	minorRE    = regexp.MustCompile(`1\.[0-9]+`)
)

// goVersions: "Go 1.NN or newer" is the runtime's go line (modGo),
// "Go (1.NN" go.work's (workGo).
func goVersions(p page, modGo, workGo string) []string {
	var out []string
	for i, l := range p.lines {
		for _, m := range needsGoRE.FindAllString(l, -1) {
			if v := minorRE.FindString(m); v != minorOf(modGo) {
				out = append(out, p.problem(i+1, "says Go %s or newer is needed; the runtime's go.mod says go %s", v, modGo))
			}
		}
		for _, m := range buildsGoRE.FindAllString(l, -1) {
			if v := minorRE.FindString(m); v != minorOf(workGo) {
				out = append(out, p.problem(i+1, "says this repository builds with Go %s; go.work says go %s", v, workGo))
			}
		}
	}
	return out
}

// toolVersions: the versions table's row of each tool (name: version)
// names its version.
func toolVersions(p page, want map[string]string) []string {
	var out []string
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		i := slices.IndexFunc(p.lines, func(l string) bool { return strings.Contains(l, "| "+name+" |") })
		switch {
		case i < 0:
			out = append(out, p.problem(0, "the versions table has no row for %s", name))
		case !strings.Contains(p.lines[i], "| "+want[name]+" |"):
			out = append(out, p.problem(i+1, "%s is %s in its go.mod, the table says otherwise", name, want[name]))
		}
	}
	return out
}

var (
	codeSpanRE = regexp.MustCompile("`[^`]*`")
	linkRE     = regexp.MustCompile(`\]\([^)[:space:]]+\)`)
)

// links: each relative link outside code spans names a file that exists
// (exists: a path from the repository's root).
func links(p page, exists func(string) bool) []string {
	var out []string
	dir := filepath.Dir(p.path)
	for i, l := range p.lines {
		for _, m := range linkRE.FindAllString(codeSpanRE.ReplaceAllString(l, ""), -1) {
			target, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(m, "]("), ")"), "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if !exists(filepath.Join(dir, target)) {
				out = append(out, p.problem(i+1, "link to %s: no such file", target))
			}
		}
	}
	return out
}

var (
	fenceRE      = regexp.MustCompile("^[[:space:]]*```")
	silentVetRE  = regexp.MustCompile(`-vettool=["]?\$\((shell )?(which|go tool -n)`)
	silentVetFix = `go vet -vettool=$(...) checks nothing, and passes, when the tool is missing; use lint=$(go tool -n statuspatch-lint) && go vet -vettool="$lint", or a Makefile file target`
)

// silentVetExcluded are docs other engineers own (issue 15; remove when
// fixed): docs/lint.md still shows $(which statuspatch-lint).
var silentVetExcluded = []string{"docs/lint.md"}

// silentVet: no fenced line runs go vet with a -vettool that is empty
// when the tool is missing.
func silentVet(p page) []string {
	if slices.Contains(silentVetExcluded, p.path) {
		return nil
	}
	var out []string
	fenced := false
	for i, l := range p.lines {
		switch {
		case fenceRE.MatchString(l):
			fenced = !fenced
		case fenced && silentVetRE.MatchString(l):
			out = append(out, p.problem(i+1, "%s", silentVetFix))
		}
	}
	return out
}

// marked is the numbers (from 1) of the lines from a begin marker of one
// of markers to its end marker, both included.
func marked(p page, markers ...string) map[int]bool {
	in := map[int]bool{}
	on := false
	for i, l := range p.lines {
		for _, m := range markers {
			if strings.Contains(l, "<!-- "+m+":begin -->") {
				on = true
			}
		}
		if on {
			in[i+1] = true
		}
		for _, m := range markers {
			if strings.Contains(l, "<!-- "+m+":end -->") {
				on = false
			}
		}
	}
	return in
}

// homes are the one home of each route: docs/kubebuilder.md's makefile
// block's generate line (from paths=) and lint-status target, README.md's
// install block's lines.
type homes struct {
	gen, lint string
	install   []string
}

var (
	homeGenRE     = regexp.MustCompile(`STATUSPATCH_GEN\)"? paths=.*`)
	genLineRE     = regexp.MustCompile(`statuspatch-gen[^ ]*"? paths=\./api/`)
	genPathsRE    = regexp.MustCompile("paths=\\./api/[^`#]*")
	latestRE      = regexp.MustCompile(`github\.com/statuspatch/statuspatch[^ ]*@latest`)
	goInstallRE   = regexp.MustCompile("go install github\\.com/statuspatch/statuspatch/cmd/[^ `]*")
	lintTargetRE  = regexp.MustCompile(`^lint-status:`)
	blockLineSkip = []string{"<!--", "```", "#"}
)

// readHomes reads the homes from docs/kubebuilder.md (kb) and README.md
// (readme); a missing one is a problem.
func readHomes(kb, readme page) (homes, []string) {
	var h homes
	var out []string
	in := marked(kb, "makefile")
	var block []string
	for i, l := range kb.lines {
		if in[i+1] {
			block = append(block, l)
		}
	}
	for _, l := range block {
		if m := homeGenRE.FindString(l); m != "" {
			_, h.gen, _ = strings.Cut(m, " ")
			h.gen = strings.TrimRight(h.gen, " \t")
			break
		}
	}
	if h.gen == "" {
		out = append(out, kb.problem(0, "the makefile block has no $(STATUSPATCH_GEN) paths=... line (the home of the generate line)"))
	}
	if i := slices.IndexFunc(block, lintTargetRE.MatchString); i >= 0 {
		// The target: its line and the lines after it up to one that starts
		// with another character than a tab (a blank line does not end it).
		t := []string{block[i]}
		for _, l := range block[i+1:] {
			if l != "" && l[0] != '\t' {
				break
			}
			t = append(t, l)
		}
		h.lint = strings.TrimRight(strings.Join(t, "\n"), "\n")
	}
	if h.lint == "" {
		out = append(out, kb.problem(0, "the makefile block has no lint-status target (the home of the lint target)"))
	}
	in = marked(readme, "install")
	for i, l := range readme.lines {
		if in[i+1] && !slices.ContainsFunc(blockLineSkip, func(s string) bool { return strings.HasPrefix(l, s) }) {
			h.install = append(h.install, l)
		}
	}
	return h, out
}

// routes: p repeats the homes word for word outside them, and installs no
// statuspatch module @latest.
func (h homes) routes(p page) []string {
	var out []string
	skip := marked(p, "makefile", "install")
	install := strings.Join(h.install, "\n")
	for i, l := range p.lines {
		n := i + 1
		if genLineRE.MatchString(l) && !skip[n] {
			if got := strings.TrimRight(genPathsRE.FindString(l), " \t"); got != h.gen {
				out = append(out, p.problem(n, "a statuspatch-gen line other than docs/kubebuilder.md's (the one home): '%s', the home has '%s'; link to docs/kubebuilder.md#makefile instead", got, h.gen))
			}
		}
		if lintTargetRE.MatchString(l) && !skip[n] {
			t := []string{l}
			for _, next := range p.lines[n:] {
				if !strings.HasPrefix(next, "\t") {
					break
				}
				t = append(t, next)
			}
			if strings.TrimRight(strings.Join(t, "\n"), "\n") != h.lint {
				out = append(out, p.problem(n, "a lint-status target other than docs/kubebuilder.md's (the one home); link to docs/kubebuilder.md#makefile instead"))
			}
		}
		if latestRE.MatchString(l) {
			out = append(out, p.problem(n, "installs a statuspatch module @latest: unpinned, it changes under the project; use the pinned lines of README.md's install block or docs/kubebuilder.md's Makefile"))
		}
		if cmd := goInstallRE.FindString(l); cmd != "" && !skip[n] && !strings.Contains(install, cmd) {
			out = append(out, p.problem(n, "'%s' is not a line of README.md's install block (the one home of the install lines); link to README.md#install instead", cmd))
		}
	}
	return out
}

// goLine is the go line of the go.mod or go.work file at path.
func goLine(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	if strings.HasSuffix(path, ".work") {
		f, err := modfile.ParseWork(path, data, nil)
		if err != nil || f.Go == nil {
			return "", fmt.Errorf("%s: no go line (%w)", path, err)
		}
		return f.Go.Version, nil
	}
	f, err := modfile.ParseLax(path, data, nil)
	if err != nil || f.Go == nil {
		return "", fmt.Errorf("%s: no go line (%w)", path, err)
	}
	return f.Go.Version, nil
}
