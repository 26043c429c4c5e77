package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/modproxy"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// prefix is the root module's path; a nested module's is prefix/DIR.
const prefix = releaseproxy.Module

// A module is one published module of the release: its folder ("." for
// the root) and the folders of the siblings it requires.
type module struct {
	dir   string
	needs []string
}

// modules are the published modules (internal/modproxy.Published, the same
// set) in dependency order, a module after the siblings it requires. The
// root and the tools require none; internal/modproxy refuses a go.mod that
// requires a sibling at another version, so a requirement missing here
// fails the release instead of shipping, and TestModulesAreTheCheckouts
// fails first.
var modules = []module{
	{".", nil},
	{"testenv/explore", []string{"."}},
	{"testenv", []string{".", "testenv/explore"}},
	{"cmd/statuspatch-gen", nil},
	{"cmd/statuspatch-lint", nil},
	{"examples", []string{".", "testenv", "testenv/explore", "cmd/statuspatch-gen", "cmd/statuspatch-lint"}},
	{"hack/golangci-plugin", []string{"cmd/statuspatch-lint"}},
}

// modPath is the module path of a published folder.
func modPath(dir string) string {
	if dir == "." {
		return prefix
	}
	return prefix + "/" + dir
}

// versionRE is a version the release takes: vMAJOR.MINOR.PATCH with an
// optional pre-release, no build metadata.
var versionRE = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)

func checkVersion(v string) error {
	if !versionRE.MatchString(v) {
		return fmt.Errorf("%s is not a version like v0.2.0", v)
	}
	return nil
}

// tags are the tags a release of version creates: the root's, then
// DIR/version for each nested module (the names the go command looks for
// in a multi-module repository).
func tags(version string) []string {
	var t []string
	for _, m := range modules {
		if m.dir == "." {
			t = append(t, version)
		} else {
			t = append(t, m.dir+"/"+version)
		}
	}
	return t
}

// lastRelease is the version of the root module testenv/go.mod (data,
// named name) requires: the last release.
func lastRelease(name string, data []byte) (string, error) {
	v, err := releaseproxy.RequiredIn(name, data, prefix)
	if err != nil {
		return "", fmt.Errorf("%w; cannot tell the last release", err)
	}
	return v, nil
}

// oursRE is a go.mod line that names a module of this repository, as a
// requirement, a tool, or an entry of a block (the root's module line
// aside).
var oursRE = regexp.MustCompile(`^[[:space:]]*(require[[:space:]]+|tool[[:space:]]+)?` + regexp.QuoteMeta(prefix) + `(/[^[:space:]]*)?([[:space:]]|$)`)

// namesNoSibling checks that the go.mod of a module that needs no sibling
// (data, named name) names none: its go.mod is released as it is.
func namesNoSibling(name string, data []byte) error {
	var errs []error
	for i, line := range strings.Split(string(data), "\n") {
		if oursRE.MatchString(line) {
			errs = append(errs, fmt.Errorf("%s:%d: %s: names a module of this repository, but hack/releaseroute's modules table says it needs none; add it there", name, i+1, strings.TrimSpace(line)))
		}
	}
	return errors.Join(errs...)
}

// requireEdits are the go commands that move every requirement between the
// published modules to version (GOWORK=off, in the module's folder).
func requireEdits(version string) []gocmd.Cmd {
	var cmds []gocmd.Cmd
	for _, m := range modules {
		for _, s := range m.needs {
			cmds = append(cmds, gocmd.Cmd{Dir: m.dir, Verb: []string{"mod", "edit", "-require", modPath(s) + "@" + version}})
		}
	}
	return cmds
}

// workFiles are the go.work files whose replace lines map our modules at
// the last release to the checkout; docFiles the install docs that name
// the version (each moved if it exists).
var (
	workFiles = []string{"go.work", "hack/golangci-plugin/go.work"}
	docFiles  = []string{"README.md", "docs/kubebuilder.md", "examples/README.md", "testenv/README.md", "docs/compatibility.md", "docs/explore-your-operator.md"}
)

// A rewrite is one line-by-line substitution: every match, or the first
// of each line.
type rewrite struct {
	re   *regexp.Regexp
	repl string
	all  bool
}

func (r rewrite) line(s string) string {
	if r.all {
		return r.re.ReplaceAllString(s, r.repl)
	}
	loc := r.re.FindStringSubmatchIndex(s)
	if loc == nil {
		return s
	}
	return s[:loc[0]] + string(r.re.ExpandString(nil, r.repl, s, loc)) + s[loc[1]:]
}

func apply(text string, rs []rewrite) string {
	lines := strings.Split(text, "\n")
	for i := range lines {
		for _, r := range rs {
			lines[i] = r.line(lines[i])
		}
	}
	return strings.Join(lines, "\n")
}

// workRewrites move go.work's replace lines of our modules from old to
// version: "PATH OLD =>" and "replace PATH OLD =>".
func workRewrites(old, version string) []rewrite {
	return []rewrite{{regexp.MustCompile(`^(\s*(replace\s+)?` + regexp.QuoteMeta(prefix) + `(/[A-Za-z0-9_./-]+)?) ` + regexp.QuoteMeta(old) + ` =>`), "${1} " + version + " =>", false}}
}

// docRewrites move the install docs from old to version: every
// PATH@OLD, a go.mod require line "PATH OLD" (in a diff too: "+\tPATH
// OLD"), the Makefile's STATUSPATCH_VERSION ?= OLD, a "version: OLD  #
// statuspatch" line.
func docRewrites(old, version string) []rewrite {
	o := regexp.QuoteMeta(old)
	return []rewrite{
		{regexp.MustCompile(`(` + regexp.QuoteMeta(prefix) + `[A-Za-z0-9/_.-]*@)` + o + `\b`), "${1}" + version, true},
		{regexp.MustCompile(`^([+ -]?\s*` + regexp.QuoteMeta(prefix) + `(/[A-Za-z0-9_./-]+)? )` + o + `\b`), "${1}" + version, false},
		{regexp.MustCompile(`(STATUSPATCH_VERSION \?= )` + o + `\b`), "${1}" + version, false},
		{regexp.MustCompile(`(version: )` + o + `(\s+# statuspatch)`), "${1}" + version + "${2}", false},
	}
}

// replaceRE is a replace directive, or the start of a block of them.
var replaceRE = regexp.MustCompile(`^\s*replace`)

// noReplace checks that a released go.mod (data, named name) replaces
// nothing.
func noReplace(name string, data []byte) error {
	var errs []error
	for i, line := range strings.Split(string(data), "\n") {
		if replaceRE.MatchString(line) {
			errs = append(errs, fmt.Errorf("%s:%d: %s: a released go.mod must not replace modules", name, i+1, strings.TrimSpace(line)))
		}
	}
	return errors.Join(errs...)
}

// checkTable checks modules against internal/modproxy's Published: the
// same folders, each module after the siblings it needs.
func checkTable() error {
	var dirs []string
	for i, m := range modules {
		for _, s := range m.needs {
			if !slices.ContainsFunc(modules[:i], func(p module) bool { return p.dir == s }) {
				return fmt.Errorf("modules: %s needs %s, which is not a published module before it", m.dir, s)
			}
		}
		dirs = append(dirs, m.dir)
	}
	pub := slices.Clone(modproxy.Published)
	slices.Sort(pub)
	slices.Sort(dirs)
	if !slices.Equal(dirs, pub) {
		return fmt.Errorf("modules %v are not internal/modproxy's Published %v", dirs, pub)
	}
	return nil
}
