package plugin_test

import (
	"path/filepath"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The golangci-lint plugin reports handwritten writes of the write token
// (+statuspatch:writeToken) as the command does: lint's testdata package
// writetoken, its want comments, through the plugin's analyzer with the
// default settings (the marker of another package reaches it as a fact).
func TestPluginReportsWriteTokenWrites(t *testing.T) {
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
	testdata, err := filepath.Abs("../lint/testdata")
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, as[0], "writetoken")
	for _, ci := range []bool{false, true} {
		p, err := newPlugin(map[string]any{"ci": ci})
		if err != nil {
			t.Fatal(err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range analysistest.Run(&discard{t}, testdata, as[0], "writetoken_audit") {
			for _, d := range r.Diagnostics {
				if d.Category == "writetoken" {
					n++
				}
			}
		}
		if n != 1 {
			t.Errorf("ci=%v: %d writes of the write token reported in writetoken_audit, want 1", ci, n)
		}
	}
}

// discard is a testing.TB for analysistest.Run that ignores mismatches
// with the want comments (writetoken_audit's are -audit's).
type discard struct{ *testing.T }

func (d *discard) Errorf(string, ...any) {}
