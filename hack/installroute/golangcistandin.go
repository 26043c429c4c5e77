package installroute

import (
	"fmt"
	"path/filepath"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// modernizeScope are the scaffold's packages the golangci-lint stand-in
// checks: those init and -fix write handwritten code into (the starter
// test, the migrated reconciler, cmd/main.go). Generated files
// (internal/patchers, api's deepcopy) are left out, as kubebuilder's
// .golangci.yml leaves them out (exclusions: generated: lax).
const modernizeScope = "./cmd/... ./internal/controller/..."

// golangciStandIn stands in for the scaffold's golangci-lint (installing
// it is not this route's subject) and runs, for "run", the one linter of
// kubebuilder v4.15's .golangci.yml that code statuspatch writes has been
// caught by: x/tools' modernize suite (the binary modernize, with omitzero
// and newexpr off as that file has them) on modernizeScope, through go
// vet. Issue 72: a stand-in that only printed its line let init's starter
// test, whose backwards loop modernize's slicesbackward rejects, pass the
// route's make lint while a user's failed.
func golangciStandIn(modernize string) string {
	return "#!/bin/sh\n" +
		"echo \"golangci-lint $* (a stand-in: the scaffold's recipe, after lint-status; run: modernize on " + modernizeScope + ")\"\n" +
		"[ \"$1\" = run ] || exit 0\n" +
		"exec go vet -vettool='" + modernize + "' -omitzero=false -newexpr=false " + modernizeScope + "\n"
}

// buildModernize builds x/tools' modernize command, at the version
// cmd/statuspatch-gen requires (golangci-lint's modernize linter runs the
// same analyzers), to out with this machine's Go.
func buildModernize(g gocmd.Go, root, out string) error {
	c := gocmd.Cmd{Dir: filepath.Join(root, "cmd", "statuspatch-gen"), Verb: []string{"build"},
		Args: []string{"-o", out, "golang.org/x/tools/go/analysis/passes/modernize/cmd/modernize"}}
	if err := g.Run(c); err != nil {
		return fmt.Errorf("build modernize for the golangci-lint stand-in: %w", err)
	}
	return nil
}
