package modproxy

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func parse(t *testing.T, name, text string) mod {
	t.Helper()
	f, err := modfile.Parse(name, []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	return mod{dir: filepath.Dir(name), name: name, data: []byte(text), file: f}
}

// A replace directive, a sibling required at another version, or a module of
// the repository that is not published would not build for a user: each is
// reported at its go.mod line.
func TestCheckPublishable(t *testing.T) {
	root := parse(t, "go.mod", "module example.com/r\n\ngo 1.26.0\n")
	nested := parse(t, "n/go.mod", "module example.com/r/n\n\ngo 1.26.0\n\nrequire example.com/r v0.1.0\n\nreplace example.com/r => ../\n\nrequire example.com/r/hack v0.2.0\n")
	err := checkPublishable([]mod{root, nested}, "v0.2.0")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"n/go.mod:5: requires example.com/r v0.1.0, but the modules are being published at v0.2.0",
		"n/go.mod:7: replace example.com/r: a published go.mod must not replace modules",
		"n/go.mod:9: requires example.com/r/hack, a module of this repository that is not published",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Third-party modules, and modules whose path merely starts with the
	// root's (example.com/rx), are not the repository's.
	if err := checkPublishable([]mod{root, parse(t, "n/go.mod", "module example.com/r/n\n\nrequire (\n\texample.com/r v0.2.0\n\texample.com/rx v0.1.0\n)\n")}, "v0.2.0"); err != nil {
		t.Errorf("consistent modules: %v", err)
	}
}

// writeModule lays out list, .info, .mod and a zip the go command accepts:
// files under module@version/, nested modules left out.
func TestWriteModule(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	files := map[string]string{
		"go.mod":        "module example.com/r\n\ngo 1.26.0\n",
		"a.go":          "package r\n",
		"n/go.mod":      "module example.com/r/n\n",
		"n/b.go":        "package n\n",
		"sub/c.go":      "package sub\n",
		"sub/README.md": "x\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Join(src, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := parse(t, "go.mod", files["go.mod"])
	for _, v := range []string{"v0.2.0", "v0.1.0", "v0.2.0"} {
		if err := writeModule(out, src, m, v, "2026-01-02T03:04:05Z"); err != nil {
			t.Fatal(err)
		}
	}
	vdir := filepath.Join(out, "example.com", "r", "@v")
	list, err := os.ReadFile(filepath.Join(vdir, "list"))
	if err != nil || string(list) != "v0.1.0\nv0.2.0\n" {
		t.Errorf("list = %q, %v", list, err)
	}
	info, err := os.ReadFile(filepath.Join(vdir, "v0.2.0.info"))
	if err != nil || string(info) != `{"Version":"v0.2.0","Time":"2026-01-02T03:04:05Z"}` {
		t.Errorf(".info = %s, %v", info, err)
	}
	zr, err := zip.OpenReader(filepath.Join(vdir, "v0.2.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	got := strings.Join(names, " ")
	for _, want := range []string{"example.com/r@v0.2.0/go.mod", "example.com/r@v0.2.0/a.go", "example.com/r@v0.2.0/sub/c.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("zip lacks %s: %s", want, got)
		}
	}
	if strings.Contains(got, "/n/") {
		t.Errorf("zip holds the nested module: %s", got)
	}
}

// Every published directory of this repository holds the module whose path
// the go command derives from its tag: the root's path, then the directory.
func TestPublishedModules(t *testing.T) {
	mods, err := readModules(filepath.Join("..", "..", ".."), Published)
	if err != nil {
		t.Fatal(err)
	}
	rootPath := mods[0].file.Module.Mod.Path
	if Published[0] != "." || rootPath != "github.com/statuspatch/statuspatch" {
		t.Fatalf("Published[0] = %q with module %s, want the root module first", Published[0], rootPath)
	}
	for _, m := range mods[1:] {
		if want := rootPath + "/" + m.dir; m.file.Module.Mod.Path != want {
			t.Errorf("%s: module %s, want %s", m.name, m.file.Module.Mod.Path, want)
		}
	}
}
