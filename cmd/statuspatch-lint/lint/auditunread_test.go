package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// An Update, or a locked merge patch, of an object nothing gave a
// resourceVersion is blind, not optimistic (s112): one the function makes
// and writes unread, whose metadata is replaced by a literal, or whose
// resourceVersion a function of the package clears; one read with Get,
// created, decoded or given a resourceVersion stays optimistic
// (testdata/src/auditunread).
func TestAuditUnread(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "auditunread")
}
