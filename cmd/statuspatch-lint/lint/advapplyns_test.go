package lint_test

import (
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Review RB of 23d4101: an apply configuration of the same name in a
// namespace given as a constant may be the object's, so the merge patch
// after it gets no lock (Unknown); and it may be another object's, so
// the apply gets no lock of the object's resourceVersion either (at
// 6abf647 it got WithResourceVersion(w.ResourceVersion), kube.NamedBy
// matching the name alone: another object's apply would fail on every
// call). The object's own key's apply gets it (advapplyns.go.golden).
func TestAdvApplyOtherNamespace(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "advapplyns")
}
