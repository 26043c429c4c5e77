// Package lines is hack/lines.txt, the supported controller-runtime /
// k8s.io / Go lines, read and checked (Parse, ReadFile), and what the scripts and
// programs of hack/ ask of it: a selection of lines (Select), the
// compatibility route's steps and pins (Compat, Pins), an operator's go.mod
// at a line (GoMod), docs/compatibility.md's table (Markdown). hack/lines is
// its command for scripts; its tests check the repository agrees with it.
package lines

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Roles a line of the table may have (hack/lines.txt's header says what
// each means).
const (
	Floor     = "floor"
	Install   = "install"
	Workspace = "workspace"
	Below     = "below"
)

// Selectors beside line names and roles: every supported line, and the
// supported lines before the workspace's (those whose compile make test
// does not do).
const (
	Supported = "supported"
	Older     = "older"
)

// A Line is one row of the table.
type Line struct {
	Name      string // v0.23: the controller-runtime minor
	CR        string // controller-runtime version: v0.23.3
	K8s       string // k8s.io version: v0.35.4; "-" below the floor
	Toolchain string // Go toolchain: go1.25.14
	Envtest   string // envtest's Kubernetes release: 1.35; "-" below the floor
	Roles     []string
}

// Has reports whether the line has the role.
func (l Line) Has(role string) bool { return slices.Contains(l.Roles, role) }

// GoMinor is the Go release of the line's toolchain: 1.25.
func (l Line) GoMinor() string {
	v := strings.TrimPrefix(l.Toolchain, "go")
	return v[:strings.LastIndex(v, ".")]
}

// GoLine is the go line of a go.mod at the line: 1.25.0.
func (l Line) GoLine() string { return l.GoMinor() + ".0" }

// K8sMinor is the k8s.io minor: v0.35.
func (l Line) K8sMinor() string { return minorOf(l.K8s) }

// Release is the Kubernetes release of the line's k8s.io version: 1.35.4
// for v0.35.4 (the folder testenv-assets use -p path module picks).
func (l Line) Release() string { return "1." + strings.TrimPrefix(l.K8s, "v0.") }

// Row is the line as scripts read it, one field per column:
// name controller-runtime k8s.io toolchain go-line envtest roles.
func (l Line) Row() string {
	roles := "-"
	if len(l.Roles) > 0 {
		roles = strings.Join(l.Roles, ",")
	}
	return strings.Join([]string{l.Name, l.CR, l.K8s, l.Toolchain, l.GoLine(), l.Envtest, roles}, " ")
}

// A Table is hack/lines.txt: the supported lines, oldest first, then the
// line below the floor.
type Table struct {
	Lines []Line
}

var (
	lineName  = regexp.MustCompile(`^v0\.[0-9]+$`)
	version   = regexp.MustCompile(`^v0\.[0-9]+\.[0-9]+$`)
	toolchain = regexp.MustCompile(`^go1\.[0-9]+\.[0-9]+$`)
	release   = regexp.MustCompile(`^1\.[0-9]+$`)
)

// ReadFile reads the table from the file at path (Parse); a fault in the
// table is reported with the path.
func ReadFile(path string) (Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return Table{}, err
	}
	defer f.Close()
	t, err := Parse(f)
	if err != nil {
		return Table{}, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Parse reads the table and checks it: every field well formed, each
// line's versions of its own minor, envtest's release that of k8s.io, the
// supported lines oldest first, one line with each role.
func Parse(r io.Reader) (Table, error) {
	var t Table
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		text, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) != 6 {
			return Table{}, fmt.Errorf("line %d: %d fields, want 6 (line controller-runtime k8s.io go envtest roles)", n, len(f))
		}
		l := Line{Name: f[0], CR: f[1], K8s: f[2], Toolchain: f[3], Envtest: f[4]}
		if f[5] != "-" {
			l.Roles = strings.Split(f[5], ",")
		}
		if err := l.check(); err != nil {
			return Table{}, fmt.Errorf("line %d: %s: %w", n, l.Name, err)
		}
		t.Lines = append(t.Lines, l)
	}
	if err := sc.Err(); err != nil {
		return Table{}, err
	}
	return t, t.check()
}

func (l Line) check() error {
	for _, r := range l.Roles {
		if !slices.Contains([]string{Floor, Install, Workspace, Below}, r) {
			return fmt.Errorf("unknown role %q", r)
		}
	}
	switch {
	case !lineName.MatchString(l.Name):
		return fmt.Errorf("the line is not v0.N")
	case !version.MatchString(l.CR) || minorOf(l.CR) != l.Name:
		return fmt.Errorf("controller-runtime %s is not a version of the line", l.CR)
	case !toolchain.MatchString(l.Toolchain):
		return fmt.Errorf("go %s is not a toolchain (go1.N.P)", l.Toolchain)
	case l.Has(Below):
		if len(l.Roles) > 1 || l.K8s != "-" || l.Envtest != "-" {
			return fmt.Errorf("the line below the floor has one role and no k8s.io or envtest (-)")
		}
	case !version.MatchString(l.K8s):
		return fmt.Errorf("k8s.io %s is not a version (v0.N.P)", l.K8s)
	case !release.MatchString(l.Envtest) || "v0."+strings.TrimPrefix(l.Envtest, "1.") != l.K8sMinor():
		return fmt.Errorf("envtest %s is not k8s.io %s's release (%s), the one kubebuilder's Makefile derives", l.Envtest, l.K8s, strings.Replace(l.K8sMinor(), "v0.", "1.", 1))
	}
	return nil
}

func (t Table) check() error {
	sup := t.Supported()
	if len(sup) == 0 {
		return fmt.Errorf("no supported line")
	}
	seen := map[string]bool{}
	for i, l := range t.Lines {
		if seen[l.Name] {
			return fmt.Errorf("line %s twice", l.Name)
		}
		seen[l.Name] = true
		if l.Has(Below) && i != len(t.Lines)-1 {
			return fmt.Errorf("the line below the floor (%s) is not the last row", l.Name)
		}
	}
	for i := 1; i < len(sup); i++ {
		if minor(sup[i].Name) <= minor(sup[i-1].Name) || minor(sup[i].K8s) < minor(sup[i-1].K8s) {
			return fmt.Errorf("line %s after %s: the supported lines go oldest first", sup[i].Name, sup[i-1].Name)
		}
	}
	for _, role := range []string{Floor, Install, Workspace, Below} {
		var with []string
		for _, l := range t.Lines {
			if l.Has(role) {
				with = append(with, l.Name)
			}
		}
		if len(with) != 1 {
			return fmt.Errorf("%d lines are %s (%s), want one", len(with), role, strings.Join(with, " "))
		}
	}
	if f, _ := t.Role(Floor); f.Name != sup[0].Name {
		return fmt.Errorf("the floor is %s, not the oldest line %s", f.Name, sup[0].Name)
	}
	if b, _ := t.Role(Below); minor(b.Name) >= minor(sup[0].Name) {
		return fmt.Errorf("the line below the floor (%s) is not below %s", b.Name, sup[0].Name)
	}
	return nil
}

// Supported are the supported lines, oldest first.
func (t Table) Supported() []Line {
	var s []Line
	for _, l := range t.Lines {
		if !l.Has(Below) {
			s = append(s, l)
		}
	}
	return s
}

// Role is the line with the role.
func (t Table) Role(role string) (Line, bool) {
	for _, l := range t.Lines {
		if l.Has(role) {
			return l, true
		}
	}
	return Line{}, false
}

// Select is the lines the selectors name, in their order, each once: a line
// (v0.23), a role (floor, install, workspace, below), supported (every
// supported line) or older (the supported lines before the workspace's).
// No selector is supported.
func (t Table) Select(sel ...string) ([]Line, error) {
	if len(sel) == 0 {
		sel = []string{Supported}
	}
	var out []Line
	add := func(ls ...Line) {
		for _, l := range ls {
			if !slices.ContainsFunc(out, func(o Line) bool { return o.Name == l.Name }) {
				out = append(out, l)
			}
		}
	}
	for _, s := range sel {
		switch s {
		case Supported:
			add(t.Supported()...)
		case Older:
			w, _ := t.Role(Workspace)
			for _, l := range t.Supported() {
				if minor(l.Name) < minor(w.Name) {
					add(l)
				}
			}
		case Floor, Install, Workspace, Below:
			l, _ := t.Role(s)
			add(l)
		default:
			i := slices.IndexFunc(t.Lines, func(l Line) bool { return l.Name == s })
			if i < 0 {
				return nil, fmt.Errorf("no line %s in hack/lines.txt: its lines are %s; or say %s", s, strings.Join(t.Names(), " "),
					strings.Join([]string{Supported, Older, Floor, Install, Workspace, Below}, ", "))
			}
			add(t.Lines[i])
		}
	}
	return out, nil
}

func (t Table) Names() []string {
	var n []string
	for _, l := range t.Lines {
		n = append(n, l.Name)
	}
	return n
}

// minorOf is v0.N of v0.N.P.
func minorOf(v string) string {
	if i := strings.LastIndex(v, "."); i > 0 && strings.Count(v, ".") == 2 {
		return v[:i]
	}
	return v
}

// minor is N of v0.N or v0.N.P.
func minor(v string) int {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return -1
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return -1
	}
	return n
}
