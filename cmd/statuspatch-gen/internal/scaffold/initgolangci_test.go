package scaffold

import (
	"strings"
	"testing"
)

// TestEditGolangciAddsWhatIsMissing: a golangci-lint v2 config without
// linters.settings (optional in v2) or without settings.custom gets the
// blocks the plugin needs, at the file's indentation; init refused the
// first ("linters has no settings: section", helper U4's F1), which
// stopped it whole.
func TestEditGolangciAddsWhatIsMissing(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"no settings", "version: \"2\"\nlinters:\n  default: none\n  enable:\n    - govet\n\n# formatters\nformatters:\n  enable:\n    - gofmt\n",
			"version: \"2\"\nlinters:\n  default: none\n  enable:\n    - govet\n    - statuspatch\n  settings:\n    custom:\n      statuspatch:\n        type: module\n        description: reports handwritten status writes\n        settings:\n          audit: false\n          tests: false\n\n# formatters\nformatters:\n  enable:\n    - gofmt\nissues:\n  max-same-issues: 0\n"},
		{"no settings, four spaces, last section", "version: \"2\"\nlinters:\n    enable:\n        - errcheck\n",
			"version: \"2\"\nlinters:\n    enable:\n        - errcheck\n        - statuspatch\n    settings:\n      custom:\n        statuspatch:\n          type: module\n          description: reports handwritten status writes\n          settings:\n            audit: false\n            tests: false\nissues:\n  max-same-issues: 0\n"},
		{"settings without custom", "version: \"2\"\nlinters:\n  enable:\n    - revive\n  settings:\n    revive:\n      rules:\n        - name: comment-spacings\n",
			"version: \"2\"\nlinters:\n  enable:\n    - revive\n    - statuspatch\n  settings:\n    custom:\n      statuspatch:\n        type: module\n        description: reports handwritten status writes\n        settings:\n          audit: false\n          tests: false\n    revive:\n      rules:\n        - name: comment-spacings\nissues:\n  max-same-issues: 0\n"},
	} {
		got, err := editGolangci(".golangci.yml", c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
		if again, err := editGolangci(".golangci.yml", got); err != nil || again != got {
			t.Errorf("%s: a second edit changed it (%v):\n%s", c.name, err, again)
		}
	}
	if _, err := editGolangci(".golangci.yml", "version: \"2\"\nlinters:\n  default: all\n"); err == nil || !strings.Contains(err.Error(), ".golangci.yml:2: linters has no enable: list") {
		t.Errorf("no enable list: %v", err)
	}
}
