package installroute

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pinnedMod's versions are made up: the pin check knows no line.
const pinnedMod = `module example.com/widgets

go 1.9

require (
	k8s.io/api v0.50.4
	sigs.k8s.io/controller-runtime v0.41.3
)

replace k8s.io/api => k8s.io/api v0.50.4
`

func pinsOf(t *testing.T, mod string) pins {
	t.Helper()
	path := filepath.Join(t.TempDir(), "go.mod")
	if err := os.WriteFile(path, []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := readPins(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMoved(t *testing.T) {
	before := pinsOf(t, pinnedMod)
	for _, tc := range []struct {
		name, mod, want string
	}{
		{"unchanged", pinnedMod, ""},
		{"a requirement added", strings.Replace(pinnedMod, "require (\n", "require (\n\tgithub.com/statuspatch/statuspatch v0.0.1\n", 1), ""},
		{"a requirement moved", strings.Replace(pinnedMod, "controller-runtime v0.41.3", "controller-runtime v0.42.1", 1), "go.mod requires sigs.k8s.io/controller-runtime v0.42.1, it required v0.41.3 before"},
		{"a requirement gone", strings.Replace(pinnedMod, "\tk8s.io/api v0.50.4\n", "", 1), "go.mod requires k8s.io/api (nothing), it required v0.50.4 before"},
		{"the go line raised", strings.Replace(pinnedMod, "go 1.9", "go 1.8", 1), "go/toolchain lines changed"},
		{"a toolchain line added", strings.Replace(pinnedMod, "go 1.9", "go 1.9\n\ntoolchain go1.9.7", 1), "go/toolchain lines changed"},
		{"a replace changed", strings.Replace(pinnedMod, "=> k8s.io/api v0.50.4", "=> k8s.io/api v0.51.0", 1), "replace directives changed"},
		{"a replace added", pinnedMod + "replace k8s.io/client-go => k8s.io/client-go v0.50.4\n", "replace directives changed"},
	} {
		got := strings.Join(moved(before, pinsOf(t, tc.mod)), "; ")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: moved = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSummary(t *testing.T) {
	before := pinsOf(t, pinnedMod)
	now := pinsOf(t, strings.Replace(pinnedMod, "require (\n", "require (\n\tgithub.com/statuspatch/statuspatch v0.0.1\n", 1))
	want := "ok: after x: 2 requirements, 1 replace directives and 'go 1.9' unchanged; 1 requirements added"
	if got := before.summary(now, "x"); got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}
