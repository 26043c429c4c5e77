package scaffold

import (
	"fmt"
	"go/ast"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// writeTokenMarker is statuspatch-gen's marker of a kind's write token
// (generator/writetoken.go): a top-level string field of the status that
// the generated patcher sets in every status write.
const writeTokenMarker = "+statuspatch:writeToken"

// writeTokenDoc is where docs/patcher.md explains the write token.
const writeTokenDoc = "docs/patcher.md#the-write-token-exact-answers-for-decisions-that-are-not-idempotent"

// crdUpgradeNote is what init says of a token's CRD: the server prunes a
// field its CRD's schema lacks, so a controller built with the token
// against an older CRD in the cluster writes a token that is never stored.
const crdUpgradeNote = "apply its CRD with the controller, on every upgrade too (Helm never upgrades crds/), or the server drops the token"

// writeTokenNotes says, for each kind of the project whose API type has a
// status (in the project's own API packages, found from PROJECT's repo and
// path), whether that status has a write token: the field when it has,
// else the two lines to add to the status type and why. init never adds
// them: a token belongs to a kind whose reconciler makes decisions that
// are not idempotent, which only the user can tell.
func writeTokenNotes(dir string, p *kbProject) ([]string, error) {
	var notes []string
	seen := map[string]bool{}
	for _, r := range p.Resources {
		rel, ok := strings.CutPrefix(r.Path, p.Repo+"/")
		if r.API == nil || r.External || r.Core || r.Kind == "" || p.Repo == "" || !ok || seen[r.Path+"."+r.Kind] {
			continue
		}
		seen[r.Path+"."+r.Kind] = true
		st, err := findStatus(dir, rel, r.Kind)
		if err != nil {
			return nil, err
		}
		if st == nil {
			continue
		}
		if st.token != "" {
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s has a write token, %s.%s: only its patcher may write it; %s (%s)",
				st.file, r.Kind, st.name, st.token, crdUpgradeNote, writeTokenDoc))
			continue
		}
		field := "WriteToken"
		if slices.Contains(st.fields, field) {
			field = "StatuspatchWriteToken"
		}
		line := fmt.Sprintf("%s string `json:\"%s,omitempty\"`", field, lowerFirst(field))
		notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s has no write token; if its decisions are not idempotent (a counter, an append), add %s to %s under // %s (%s)",
			st.file, r.Kind, line, st.name, writeTokenMarker, writeTokenDoc))
	}
	return notes, nil
}

// statusType is a kind's status struct type as init reads it.
type statusType struct {
	name   string   // CaptainStatus
	file   string   // where it is declared, relative to the project, slash-separated
	fields []string // its field names
	token  string   // the field marked writeTokenMarker, or ""
}

// findStatus parses the non-test Go files of the API package in rel and
// returns the struct type of kind's Status field (Status T or *T, T
// declared in that package); nil when the package, the kind, its Status
// field or a struct T is not there.
func findStatus(dir, rel, kind string) (*statusType, error) {
	_, structs, err := packageStructs(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var statusName string
	if k, ok := structs[kind]; ok {
		for _, f := range k.typ.Fields.List {
			typ := f.Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && slices.ContainsFunc(f.Names, func(n *ast.Ident) bool { return n.Name == "Status" }) {
				statusName = id.Name
			}
		}
	}
	st, ok := structs[statusName]
	if !ok {
		return nil, nil
	}
	out := &statusType{name: statusName, file: path.Join(rel, st.file)}
	for _, f := range st.typ.Fields.List {
		for _, n := range f.Names {
			out.fields = append(out.fields, n.Name)
			if out.token == "" && f.Doc != nil && slices.ContainsFunc(f.Doc.List, func(c *ast.Comment) bool {
				return strings.TrimSpace(strings.TrimPrefix(c.Text, "//")) == writeTokenMarker
			}) {
				out.token = n.Name
			}
		}
	}
	return out, nil
}

// lowerFirst is name with its first letter lower-cased, as kubebuilder
// names a field's JSON key.
func lowerFirst(name string) string {
	if name == "" {
		return name
	}
	return strings.ToLower(name[:1]) + name[1:]
}
