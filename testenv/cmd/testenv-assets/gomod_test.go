package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// testdata/kubernetes-v1.35.4.mod is k8s.io/kubernetes v1.35.4's go.mod as
// the module proxy serves it.
func readKubeGoMod(t *testing.T) kubeGoMod {
	t.Helper()
	data, err := os.ReadFile("testdata/kubernetes-v1.35.4.mod")
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseKubeGoMod(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseKubeGoMod(t *testing.T) {
	m := readKubeGoMod(t)
	if m.Go != "1.25.0" {
		t.Errorf("Go = %q", m.Go)
	}
	if !reflect.DeepEqual(m.Godebug, []string{"default=go1.25"}) {
		t.Errorf("Godebug = %q", m.Godebug)
	}
	if m.Etcd != "v3.6.5" {
		t.Errorf("Etcd = %q, want the go.etcd.io/etcd/server/v3 requirement v3.6.5", m.Etcd)
	}
	if len(m.Replace) != 0 {
		t.Errorf("Replace = %q, want none", m.Replace)
	}
	// Every ./staging/src replace line of the file, and nothing else.
	data, _ := os.ReadFile("testdata/kubernetes-v1.35.4.mod")
	var want []string
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[1] == "=>" && strings.HasPrefix(f[2], "./staging/src/") {
			want = append(want, f[0])
		}
	}
	if len(want) != 31 || !reflect.DeepEqual(m.Staging, want) {
		t.Errorf("Staging = %q (%d), want the file's %d staging replacements %q", m.Staging, len(m.Staging), len(want), want)
	}
}

func TestParseKubeGoModForms(t *testing.T) {
	m, err := parseKubeGoMod([]byte(`module k8s.io/kubernetes // comment
go 1.24.0
godebug (
	default=go1.24
	winsymlink=0 // comment
)
require go.etcd.io/etcd/client/v3 v3.5.21
require (
	k8s.io/api v0.0.0
)
replace k8s.io/api => ./staging/src/k8s.io/api
replace (
	github.com/example/old v1.0.0 => github.com/example/new v1.2.0
	k8s.io/apimachinery => ./staging/src/k8s.io/apimachinery // comment
)
`))
	if err != nil {
		t.Fatal(err)
	}
	want := kubeGoMod{
		Go:      "1.24.0",
		Godebug: []string{"default=go1.24", "winsymlink=0"},
		Staging: []string{"k8s.io/api", "k8s.io/apimachinery"},
		Replace: []string{"github.com/example/old v1.0.0 => github.com/example/new v1.2.0"},
		Etcd:    "v3.5.21", // the client's version when the server is not required
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v\nwant %+v", m, want)
	}
}

func TestParseKubeGoModErrors(t *testing.T) {
	for _, tc := range []struct{ name, mod, wantErr string }{
		{"no staging", "module k8s.io/kubernetes\ngo 1.25.0\n", "replaces no staging module"},
		{"no go", "module k8s.io/kubernetes\nreplace k8s.io/api => ./staging/src/k8s.io/api\nrequire go.etcd.io/etcd/server/v3 v3.6.5\n", "no go directive"},
		{"no etcd", "module k8s.io/kubernetes\ngo 1.25.0\nreplace k8s.io/api => ./staging/src/k8s.io/api\n", "etcd version is unknown"},
		{"local non-staging", "module k8s.io/kubernetes\ngo 1.25.0\nreplace (\n\tfoo.io/bar => ./third_party/bar\n)\n", "line 4: replace \"foo.io/bar => ./third_party/bar\" points into"},
		{"bad replace", "module k8s.io/kubernetes\ngo 1.25.0\nreplace foo.io/bar\n", "line 3: cannot read replace"},
	} {
		_, err := parseKubeGoMod([]byte(tc.mod))
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}

// The scratch go.mod requires k8s.io/kubernetes at the release and replaces
// each staging module with its published v0.N.P; the go command reads it as
// such.
func TestApiserverGoMod(t *testing.T) {
	m := readKubeGoMod(t)
	v := kubeVersion{Minor: 35, Patch: 4}
	text := apiserverGoMod(v, m)
	for _, want := range []string{
		"module " + apiserverModule + "\n",
		"\ngo 1.25.0\n",
		"\ngodebug default=go1.25\n",
		"\nrequire k8s.io/kubernetes v1.35.4\n",
		"\tk8s.io/api => k8s.io/api v0.35.4\n",
		"\tk8s.io/apiextensions-apiserver => k8s.io/apiextensions-apiserver v0.35.4\n",
		"\tk8s.io/sample-controller => k8s.io/sample-controller v0.35.4\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("scratch go.mod lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "staging") && strings.Contains(text, "=> ./") {
		t.Errorf("scratch go.mod points at the staging tree:\n%s", text)
	}

	got := goModEditJSON(t, text)
	if got.Module.Path != apiserverModule || got.Go != "1.25.0" {
		t.Errorf("go mod edit -json: module %q go %q", got.Module.Path, got.Go)
	}
	if len(got.Require) != 1 || got.Require[0].Path != "k8s.io/kubernetes" || got.Require[0].Version != "v1.35.4" {
		t.Errorf("go mod edit -json: require %+v", got.Require)
	}
	if len(got.Replace) != len(m.Staging) {
		t.Errorf("go mod edit -json: %d replace lines, want %d", len(got.Replace), len(m.Staging))
	}
	for i, r := range got.Replace {
		if r.Old.Path != m.Staging[i] || r.New.Path != m.Staging[i] || r.New.Version != "v0.35.4" || r.Old.Version != "" {
			t.Errorf("go mod edit -json: replace %+v, want %s => %s v0.35.4", r, m.Staging[i], m.Staging[i])
		}
	}
	// go 1.24's go mod edit -json prints no godebug lines (the floor's
	// tests run on it); there the text check above stands alone.
	if got.Godebug != nil && (len(got.Godebug) != 1 || got.Godebug[0].Key != "default" || got.Godebug[0].Value != "go1.25") {
		t.Errorf("go mod edit -json: godebug %+v", got.Godebug)
	}

	etcd := goModEditJSON(t, etcdGoMod("v3.6.5", "1.25.0"))
	if etcd.Module.Path != etcdModule || len(etcd.Require) != 1 || etcd.Require[0].Path != etcdServer || etcd.Require[0].Version != "v3.6.5" || len(etcd.Replace) != 0 {
		t.Errorf("etcd's scratch go.mod: %+v", etcd)
	}
}

type modulePath struct{ Path, Version string }

type goModJSON struct {
	Module  modulePath
	Go      string
	Godebug []struct{ Key, Value string }
	Require []modulePath
	Replace []struct{ Old, New modulePath }
}

// goModEditJSON parses text with the go command itself (no network).
func goModEditJSON(t *testing.T, text string) goModJSON {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "mod", "edit", "-json")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = ee.Stderr
		}
		t.Fatalf("go mod edit -json: %v\n%s\n%s", err, stderr, text)
	}
	var got goModJSON
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return got
}
