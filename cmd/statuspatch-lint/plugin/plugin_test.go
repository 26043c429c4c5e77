package plugin_test

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	_ "github.com/statuspatch/statuspatch/cmd/statuspatch-lint/plugin"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("statuspatch")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{"audit": true, "ci": true, "tests": true, "baseline": "statuspatch.baseline"})
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
}
