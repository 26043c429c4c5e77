package migrate

import (
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
)

// The options a moved write's patcher is made with are one table
// (ctorOptions): each entry says when the write needs its option and its
// text after the patcher package's qualifier. A new option costs an entry
// here and a test.

// A ctorOption is one option of the generated constructors.
type ctorOption struct {
	name string
	// text is the option's call after the qualifier, "" when the write
	// does not need it.
	text func(m *migration) string
}

// ctorOptions is the table, in the order the options are written.
var ctorOptions = []ctorOption{
	// A merge write's field owner (migrateowner.go).
	{name: "field owner", text: func(m *migration) string {
		if m.owner.expr == nil {
			return ""
		}
		return "WithFieldOwner(" + m.owner.text() + ")"
	}},
	// A conflict loop's own backoff, which Retry waits as
	// (migrateloopbackoff.go).
	{name: "backoff", text: func(m *migration) string {
		if m.backoff == nil {
			return ""
		}
		return "WithBackoff(" + m.text().source(m.backoff) + ")"
	}},
	// A status subresource write after changes outside the status, which
	// it left unsent as the patcher then does (migrateunsent.go).
	{name: "changes outside status unsent", text: func(m *migration) string {
		if !m.unsent {
			return ""
		}
		return "WithNonStatusChangesUnsent()"
	}},
}

// patcherOptions is the constructor's options for m's write in t's file
// (", patcher.WithFieldOwner(o), ..."), with the edit importing the
// patcher package when the file does not, or "" and nil when it needs
// none.
func (m *migration) patcherOptions(t text) (string, *analysis.TextEdit, string) {
	var opts []string
	for _, o := range ctorOptions {
		if s := o.text(m); s != "" {
			opts = append(opts, s)
		}
	}
	if len(opts) == 0 {
		return "", nil, ""
	}
	pqual, pimport, why := t.qualifier(kube.PatcherPkgPath)
	if why != "" {
		return "", nil, why
	}
	return ", " + pqual + strings.Join(opts, ", "+pqual), pimport, ""
}
