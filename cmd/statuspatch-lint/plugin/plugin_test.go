package plugin_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	_ "github.com/statuspatch/statuspatch/cmd/statuspatch-lint/plugin"
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
