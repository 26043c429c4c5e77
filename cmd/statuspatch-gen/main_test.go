package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/internal/scaffold"
)

// TestKBPluginExitStatus: run under the plugin's name (as kubebuilder runs
// it, without arguments), the program answers a bad request with an error
// response on stdout and exit status 0, since kubebuilder reads the
// response only from a plugin that exits 0.
func TestKBPluginExitStatus(t *testing.T) {
	if os.Getenv("STATUSPATCH_KBPLUGIN_MAIN") != "" {
		// The parent's temporary folder: this process ends in os.Exit,
		// before a t.TempDir of its own would be removed.
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		os.Args = []string{filepath.Join(wd, scaffold.PluginName)}
		main()
		os.Exit(0) // not the test framework's PASS on stdout
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKBPluginExitStatus$")
	cmd.Env = append(os.Environ(), "STATUSPATCH_KBPLUGIN_MAIN=1")
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader(`{"apiVersion":"v1alpha1","command":"edit","args":["--statuspatch-version","v0.1.0"],"universe":{}}`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// kubebuilder's external.PluginResponse, the fields this test reads
	var res struct {
		Error     bool     `json:"error"`
		ErrorMsgs []string `json:"errorMsgs"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if !res.Error || len(res.ErrorMsgs) == 0 || !strings.Contains(res.ErrorMsgs[0], "PROJECT: no such file") {
		t.Errorf("response %s", out)
	}
}
