package lint_test

import (
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDefault(t *testing.T) {
	a := lint.NewAnalyzer(lint.Config{})
	analysistest.Run(t, analysistest.TestData(), a, "basic")
}

// A status apply's finding names apply mode and the field owner (issue 72).
func TestApplyMessage(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "applymessage")
}

// Built-in kinds the project generates no patcher for are no handwritten
// writes (issue 72): an optimistic one is -audit's only, a blind one is
// reported by its verdict.
func TestBuiltinKindsWithoutPatcher(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "builtinkinds")
}

func TestAudit(t *testing.T) {
	a := lint.NewAnalyzer(lint.Config{Audit: true})
	analysistest.Run(t, analysistest.TestData(), a, "audit")
}

func TestGeneratedFilesExcluded(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "generated")
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "generated_audit")
}

func TestTestFiles(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "testfiles_excluded")
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Tests: true}), "testfiles_included")
}

func TestPatchersAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "crosspkg")
}

// Two generated patcher packages of one kind, each under its operator's
// internal/ (a monorepo): the one named is the one the package may
// import, not the first by path (monorepo; reviewer R's fault 6, s106).
func TestPatchersImportable(t *testing.T) {
	given := "example.com/op/api/v1.Widget=example.com/a/internal/patchers," +
		"example.com/op/api/v1.Widget=example.com/op/controllers/internal/patchers," +
		"example.com/op/api/v1.Widget=example.com/op/other/internal/patchers"
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Patchers: given}), "example.com/op/controllers/monorepo")
}

// The runtime package and its subpackages write status by design.
func TestPatcherRuntimeExcluded(t *testing.T) {
	for _, audit := range []bool{false, true} {
		analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: audit}),
			"github.com/statuspatch/statuspatch/patcher/...")
	}
}

// Patterns from trials on real operators: cluster-api's controllers
// (v1.8.4, v1.13.6).
func TestRealWorldRegressions(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}),
		"capi", "unstructuredapply", "rawpatch", "replaydelta")
}

// Status writes by server-side apply, in kubebuilder's --ssa shape and
// the older routes (client.Apply, a raw apply patch): blind without a
// resourceVersion, optimistic with one, unresolved when the configuration
// is not traced; main-resource applies and other subresources are not
// status writes.
func TestServerSideApply(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "kbssa")
}

// Diagnostics are reported in source order within a package: the drivers
// print them as reported, and SSA visits closures after their parent and
// blocks out of source order.
func TestReportOrder(t *testing.T) {
	for _, cfg := range []lint.Config{{}, {Audit: true}} {
		for _, pkg := range []string{"basic", "audit", "capi"} {
			results := analysistest.Run(&discard{t}, analysistest.TestData(), lint.NewAnalyzer(cfg), pkg)
			for _, r := range results {
				diags := r.Diagnostics
				if len(diags) < 2 {
					t.Errorf("audit=%v %s: %d diagnostics, want several", cfg.Audit, pkg, len(diags))
				}
				for i := 1; i < len(diags); i++ {
					if diags[i].Pos < diags[i-1].Pos {
						t.Errorf("audit=%v %s: %s reported after %s", cfg.Audit, pkg,
							r.Pass.Fset.Position(diags[i].Pos), r.Pass.Fset.Position(diags[i-1].Pos))
					}
				}
			}
		}
	}
}

// discard is a testing.TB for analysistest.Run that ignores mismatches
// with the want comments (the packages are not all meant for every mode):
// only the order is checked here.
type discard struct{ *testing.T }

func (d *discard) Errorf(string, ...any) {}

// -ci reports only blind and unresolved writes that no directive allows:
// a package whose writes are all optimistic or allowed gets no finding
// (the command exits 0), anything else does (exit 3).
func TestAuditCI(t *testing.T) {
	for _, cfg := range []lint.Config{{CI: true}, {CI: true, Audit: true}} {
		analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(cfg), "auditci", "auditci_clean")
	}
}

// Every diagnostic has a Category that golangci-lint users can filter on:
// handwritten in default mode, the verdict in audit mode, allow for a
// directive without a reason.
func TestCategories(t *testing.T) {
	for _, cfg := range []lint.Config{{}, {Audit: true}, {CI: true}} {
		for _, r := range analysistest.Run(&discard{t}, analysistest.TestData(), lint.NewAnalyzer(cfg), "basic", "audit", "fix") {
			for _, d := range r.Diagnostics {
				want := "handwritten"
				switch verdict, _, _ := strings.Cut(d.Message, ":"); {
				case d.Message == "statuspatch:allow needs a reason":
					want = "allow"
				case cfg.Audit || cfg.CI:
					want = verdict
				}
				if d.Category != want {
					t.Errorf("%+v %s: category %q, want %q (%s)", cfg, r.Pass.Fset.Position(d.Pos), d.Category, want, d.Message)
				}
			}
		}
	}
}

// A status decided before the re-read is replayed: blind in audit mode,
// named in default mode, category replay; the twins that recompute from
// the fresh object or take external inputs are not.
func TestReplayedStatus(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "replay")
	for _, r := range analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{}), "replaydefault") {
		for _, d := range r.Diagnostics {
			if d.Category != "replay" {
				t.Errorf("%s: category %q, want replay", r.Pass.Fset.Position(d.Pos), d.Category)
			}
		}
	}
}

// A patch stored in a struct field gets the verdict its assignments in the
// package agree on; one built in another package of the module gets the
// verdict that package's analysis exported as a fact. Mixed assignments,
// an escaping field and an interface method stay unresolved, with why.
func TestPatchesThroughFieldsAndPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "fieldpatch", "crossmod/util", "crossmod/controllers")
}

// A generated patcher's Flush/Retry follows the write mode of the options
// it was made with, the client's defaults first, the later option winning:
// blind without the lock, unresolved for a mode that is not a constant,
// optimistic otherwise; where the patcher or its client is made out of
// sight, optimistic with the reason saying so.
func TestGeneratedPatcherWriteMode(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), lint.NewAnalyzer(lint.Config{Audit: true}), "patchermode")
}
