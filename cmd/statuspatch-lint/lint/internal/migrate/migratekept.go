package migrate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
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

// keptGets are the re-reads of one migration's object that stay Gets.
type keptGets []keptGet

// keep records that get stays a Get, and why ("" for no reason known).
func (ks *keptGets) keep(get ast.Stmt, why string) {
	for _, k := range *ks {
		if k.get == get {
			return
		}
	}
	*ks = append(*ks, keptGet{get, why})
}

// note is what the write's finding and fix say of the kept re-reads of
// obj: "" for none.
func (ks keptGets) note(fset *token.FileSet, obj *types.Var, p Patcher) string {
	var parts []string
	for _, k := range ks {
		why := ""
		if k.why != "" {
			why = " (" + k.why + ")"
		}
		parts = append(parts, fmt.Sprintf("the re-read of %s at line %d stays a cached Get%s: make it Fetch%s by hand, which reads again through the API reader when the cache is behind this process's last write",
			obj.Name(), fset.Position(k.get.Pos()).Line, why, p.Type))
	}
	return strings.Join(parts, "; ")
}
