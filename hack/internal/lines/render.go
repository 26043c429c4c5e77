package lines

import (
	"fmt"
	"strings"
)

// What scripts and docs print of the table: the envtest release make
// test-assets builds, an operator's go.mod pinned at a line, and
// docs/compatibility.md's table.

// Assets is the envtest release make test-assets builds: the install
// line's, any patch (1.35.x).
func (t Table) Assets() string {
	l, _ := t.Role(Install)
	return l.Envtest + ".x"
}

// GoMod is the go.mod of an operator pinned at the line the way
// kubebuilder v4 projects pin (keda and sei-k8s-controller do so too): the
// go line of the line's Go, controller-runtime and k8s.io required, and
// replace directives holding them and apiextensions-apiserver there.
func (l Line) GoMod(module string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n", module, l.GoLine())
	for _, p := range []string{"api", "apimachinery", "client-go"} {
		fmt.Fprintf(&b, "\tk8s.io/%s %s\n", p, l.K8s)
	}
	fmt.Fprintf(&b, "\tsigs.k8s.io/controller-runtime %s\n)\n\nreplace (\n", l.CR)
	for _, p := range []string{"api", "apiextensions-apiserver", "apimachinery", "client-go"} {
		fmt.Fprintf(&b, "\tk8s.io/%s => k8s.io/%s %s\n", p, p, l.K8s)
	}
	fmt.Fprintf(&b, "\tsigs.k8s.io/controller-runtime => sigs.k8s.io/controller-runtime %s\n)\n", l.CR)
	return b.String()
}

// Markdown is the table of docs/compatibility.md, between its
// compat-lines markers.
func (t Table) Markdown() string {
	var b strings.Builder
	b.WriteString("| line | controller-runtime | k8s.io | Go |\n|---|---|---|---|\n")
	for _, l := range t.Supported() {
		name := l.Name
		if l.Has(Floor) {
			name += " (the floor)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", name, l.CR, l.K8s, l.Toolchain)
	}
	return b.String()
}
