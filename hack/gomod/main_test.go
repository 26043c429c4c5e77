package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDropOurs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "go.sum")
	if err := DropOurs(path); err != nil {
		t.Fatalf("no go.sum: %v", err)
	}
	in := "github.com/onsi/gomega v1.39.0 h1:x=\n" +
		"github.com/statuspatch/statuspatch v0.1.0 h1:y=\n" +
		"github.com/statuspatch/statuspatch/testenv v0.1.0/go.mod h1:z=\n" +
		"github.com/statuspatch/statuspatchx v1.0.0 h1:w=\n"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := DropOurs(path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "github.com/onsi/gomega v1.39.0 h1:x=\ngithub.com/statuspatch/statuspatchx v1.0.0 h1:w=\n"
	if string(got) != want {
		t.Errorf("go.sum after DropOurs:\n%s\nwant:\n%s", got, want)
	}
}

func TestUsage(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"testenv"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "usage: hack/gomod.sh") {
		t.Errorf("run(testenv) = %d, %q", code, errb.String())
	}
}
