package plugin_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/ondisk"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint"
	_ "github.com/statuspatch/statuspatch/cmd/statuspatch-lint/plugin"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("statuspatch")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"audit": true, "ci": true, "tests": true})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 1 || as[0].Name != "statuspatch" {
		t.Fatalf("BuildAnalyzers() = %v, %v", as, err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q", got)
	}
	if _, err := newPlugin(map[string]any{"audit": "yes"}); err == nil {
		t.Error("bad settings: want an error")
	}
	// Baselines are the standalone command's: golangci-lint has its own.
	if _, err := newPlugin(map[string]any{"baseline": "statuspatch.baseline"}); err == nil || !strings.Contains(err.Error(), "issues.new-from-rev") {
		t.Errorf("baseline setting: err = %v, want a refusal naming golangci-lint's own", err)
	}
}

// The patchers setting reaches the analyzer: a controller that does not
// import its generated patchers yet is told where they are.
func TestPluginPatchers(t *testing.T) {
	t.Setenv("GOWORK", "off")
	newPlugin, err := register.GetPlugin("statuspatch")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"patchers": "example.com/newcomer/api/v1.Website=example.com/newcomer/internal/patchers"})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("../lint/testdata/newcomer")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, as[0], "./internal/controller")
}

// Without the patchers setting the plugin looks on disk as the standalone
// command does (issue 72): run from the module (make lint runs
// golangci-lint in the project's root), a package that does not import
// the generated patchers is told WebsiteStatusPatcher
// (example.com/newcomer/internal/patchers), the standalone linter's words,
// not to generate one.
func TestPluginFindsPatchersOnDisk(t *testing.T) {
	t.Setenv("GOWORK", "off")
	dir, err := filepath.Abs("../lint/testdata/newcomer")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	newPlugin, err := register.GetPlugin("statuspatch")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"audit": false, "tests": false})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, as[0], "./internal/controller")
}

// The plugin and the standalone linter (lint.Config with the patchers the
// command finds on disk, ondisk.PatchersArg) give the same findings, word
// for word, on the same package (issue 72: the two answered differently
// on one line).
func TestPluginSaysWhatTheCommandSays(t *testing.T) {
	t.Setenv("GOWORK", "off")
	dir, err := filepath.Abs("../lint/testdata/newcomer")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	newPlugin, err := register.GetPlugin("statuspatch")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	command := lint.NewAnalyzer(lint.Config{Patchers: ondisk.PatchersArg(filepath.Join(dir, "internal", "controller"))})
	findings := func(a *analysis.Analyzer) []string {
		var out []string
		for _, r := range analysistest.Run(t, dir, a, "./internal/controller") {
			for _, d := range r.Diagnostics {
				out = append(out, r.Pass.Fset.Position(d.Pos).String()+": "+d.Message)
			}
		}
		return out
	}
	plugin, standalone := findings(as[0]), findings(command)
	if len(plugin) == 0 || strings.Join(plugin, "\n") != strings.Join(standalone, "\n") {
		t.Errorf("the plugin's findings:\n%s\nthe command's:\n%s", strings.Join(plugin, "\n"), strings.Join(standalone, "\n"))
	}
}
