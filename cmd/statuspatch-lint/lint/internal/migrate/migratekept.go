package migrate

import (
	"fmt"
	"go/ast"
	"strings"
)

// A keptGet is a re-read of the object after a status write that moves
// (kubebuilder's "re-fetch before updating the status") that -fix leaves a
// Get, and why: through the manager's cache it can return the object as it
// was before this process's own write, and the patcher made from it then
// conflicts (409) or re-reads. Fetch<Kind>StatusPatcher reads again
// through the API reader when the cache is behind; the finding says so.
type keptGet struct {
	get ast.Stmt
	why string
}

// keepGet records that get stays a Get, and why ("" for no reason known).
func (m *migration) keepGet(get ast.Stmt, why string) {
	for _, k := range m.keptGets {
		if k.get == get {
			return
		}
	}
	m.keptGets = append(m.keptGets, keptGet{get, why})
}

// keptNote is what the write's finding and fix say of its kept re-reads:
// "" for none.
func (m *migration) keptNote(p Patcher) string {
	var parts []string
	for _, k := range m.keptGets {
		why := ""
		if k.why != "" {
			why = " (" + k.why + ")"
		}
		parts = append(parts, fmt.Sprintf("the re-read of %s at line %d stays a cached Get%s: make it Fetch%s by hand, which reads again through the API reader when the cache is behind this process's last write",
			m.obj.Name(), m.pass.Fset.Position(k.get.Pos()).Line, why, p.Type))
	}
	return strings.Join(parts, "; ")
}
