// Package plugin registers the statuspatch analyzer as a golangci-lint v2
// module plugin named "statuspatch".
//
// .custom-gcl.yml:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/statuspatch/statuspatch
//	    import: github.com/statuspatch/statuspatch/cmd/statuspatch-lint/plugin
//	    version: v0.1.0
//
// .golangci.yml:
//
//	version: "2"
//	linters:
//	  default: none
//	  enable: [statuspatch]
//	  settings:
//	    custom:
//	      statuspatch:
//	        type: module
//	        settings:
//	          audit: false
//	          ci: false
//	          tests: false
//	          patchers: example.com/op/api/v1.Widget=example.com/op/internal/patchers
package plugin

import (
	"fmt"
	"os"

	"github.com/golangci/plugin-module-register/register"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	"golang.org/x/tools/go/analysis"
)

func init() {
	register.Plugin("statuspatch", New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// Audit reports every status write with a verdict instead of only
	// the handwritten ones.
	Audit bool `json:"audit"`
	// CI reports only blind and unresolved writes that no directive
	// allows (implies Audit): a CI gate.
	CI bool `json:"ci"`
	// Tests also checks _test.go files (golangci-lint's run.tests must be
	// true for them to be loaded).
	Tests bool `json:"tests"`
	// Baseline is refused: baselines are the standalone command's
	// (statuspatch-lint -baseline), and golangci-lint has its own
	// (issues.new-from-rev, issues.new-from-patch, exclusions): the
	// analyzer reads and writes no file.
	Baseline string `json:"baseline"`
	// Patchers names generated patchers that packages do not import yet,
	// as <object package>.<Kind>=<patcher package>,... (the analyzer's
	// -patchers): their writes are told which patcher to use, and --fix
	// moves them onto it. Empty, the plugin finds them on disk in the
	// module of golangci-lint's working folder, as the standalone command
	// does.
	Patchers string `json:"patchers"`
}

// Plugin is the statuspatch golangci-lint plugin.
type Plugin struct {
	settings Settings
}

var _ register.LinterPlugin = (*Plugin)(nil)

// New decodes the settings and returns the plugin.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("statuspatch plugin settings: %w", err)
	}
	if s.Baseline != "" {
		return nil, fmt.Errorf("statuspatch plugin settings: baseline %q: the plugin has no baseline; use golangci-lint's own (issues.new-from-rev, issues.new-from-patch, exclusions) or the standalone statuspatch-lint -baseline (docs/lint.md)", s.Baseline)
	}
	return &Plugin{settings: s}, nil
}

// BuildAnalyzers returns an analyzer configured by the settings. Without a
// patchers setting it is given the patchers statuspatch-gen wrote into the
// module golangci-lint runs in (ondisk.PatchersArg of the working folder),
// as the standalone command is: a package that does not import them (a
// helper in another package) is told the same patcher by both.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	patchers := p.settings.Patchers
	if patchers == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("statuspatch plugin: the generated patchers on disk: %w", err)
		}
		patchers = ondisk.PatchersArg(wd)
	}
	return []*analysis.Analyzer{lint.NewAnalyzer(lint.Config{Audit: p.settings.Audit, CI: p.settings.CI, Tests: p.settings.Tests, Patchers: patchers})}, nil
}

// GetLoadMode needs type information: the analyzer matches the client by
// its types and builds SSA.
func (p *Plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}
