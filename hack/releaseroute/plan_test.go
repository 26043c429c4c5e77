package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func TestCheckVersion(t *testing.T) {
	for _, v := range []string{"v0.2.0", "v1.2.3-rc.1", "v0.99.0", "v10.0.0"} {
		if err := checkVersion(v); err != nil {
			t.Errorf("checkVersion(%s): %v", v, err)
		}
	}
	for _, v := range []string{"0.2.0", "v0.2", "v1.2.3+build", "v01.2.3", "v1.2.3-", ""} {
		if err := checkVersion(v); err == nil {
			t.Errorf("checkVersion(%q) accepted it", v)
		}
	}
}

// The tags: the root's version, then DIR/version for each nested module.
func TestTags(t *testing.T) {
	want := []string{"v0.9.0", "testenv/explore/v0.9.0", "testenv/v0.9.0", "cmd/statuspatch-gen/v0.9.0", "cmd/statuspatch-lint/v0.9.0", "examples/v0.9.0", "hack/golangci-plugin/v0.9.0"}
	if got := tags("v0.9.0"); !slices.Equal(got, want) {
		t.Errorf("tags = %v, want %v", got, want)
	}
}

// The modules table is the checkout's: internal/modproxy's published
// folders, in dependency order; a module that needs siblings requires
// exactly those in its go.mod, one that needs none names none.
func TestModulesAreTheCheckouts(t *testing.T) {
	if err := checkTable(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	for _, m := range modules {
		name := filepath.ToSlash(filepath.Join(m.dir, "go.mod"))
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(m.needs) == 0 {
			if err := namesNoSibling(name, data); err != nil {
				t.Error(err)
			}
			continue
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, r := range f.Require {
			if r.Mod.Path == prefix || strings.HasPrefix(r.Mod.Path, prefix+"/") {
				got = append(got, r.Mod.Path)
			}
		}
		for _, s := range m.needs {
			want = append(want, modPath(s))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s requires %v of ours, the modules table says %v", name, got, want)
		}
	}
}

// A table whose module needs a sibling after it, or that is not the
// published set, is refused.
func TestCheckTableRefuses(t *testing.T) {
	saved := modules
	t.Cleanup(func() { modules = saved })
	modules = append([]module{{"examples", []string{"testenv"}}}, saved...)
	if err := checkTable(); err == nil || !strings.Contains(err.Error(), "examples needs testenv") {
		t.Errorf("a module before its sibling: %v", err)
	}
	modules = saved[:5]
	if err := checkTable(); err == nil {
		t.Error("a published module missing: no error")
	}
}

// The go commands that move the pins: one go mod edit -require per
// sibling a module needs, in the module's folder, outside the workspace.
func TestRequireEdits(t *testing.T) {
	var got []string
	for _, c := range requireEdits("v0.9.0") {
		got = append(got, c.String())
	}
	p := "github.com/statuspatch/statuspatch"
	want := []string{
		"(cd testenv/explore && GOWORK=off go mod edit -require " + p + "@v0.9.0)",
		"(cd testenv && GOWORK=off go mod edit -require " + p + "@v0.9.0)",
		"(cd testenv && GOWORK=off go mod edit -require " + p + "/testenv/explore@v0.9.0)",
		"(cd examples && GOWORK=off go mod edit -require " + p + "@v0.9.0)",
		"(cd examples && GOWORK=off go mod edit -require " + p + "/testenv@v0.9.0)",
		"(cd examples && GOWORK=off go mod edit -require " + p + "/testenv/explore@v0.9.0)",
		"(cd examples && GOWORK=off go mod edit -require " + p + "/cmd/statuspatch-gen@v0.9.0)",
		"(cd examples && GOWORK=off go mod edit -require " + p + "/cmd/statuspatch-lint@v0.9.0)",
		"(cd hack/golangci-plugin && GOWORK=off go mod edit -require " + p + "/cmd/statuspatch-lint@v0.9.0)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("requireEdits:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestNamesNoSibling(t *testing.T) {
	ok := "module github.com/statuspatch/statuspatch/cmd/statuspatch-gen\n\nrequire (\n\tgithub.com/statuspatch/statuspatchx v1.0.0\n\tgolang.org/x/mod v0.9.0\n)\n"
	if err := namesNoSibling("cmd/statuspatch-gen/go.mod", []byte(ok)); err != nil {
		t.Errorf("no module of ours: %v", err)
	}
	bad := "module example.com/m\n\nrequire github.com/statuspatch/statuspatch v0.9.0\n\nrequire (\n\tgithub.com/statuspatch/statuspatch/testenv v0.9.0 // indirect\n)\n\ntool github.com/statuspatch/statuspatch/cmd/statuspatch-gen\n"
	err := namesNoSibling("m/go.mod", []byte(bad))
	for _, want := range []string{"m/go.mod:3: require github.com/statuspatch/statuspatch v0.9.0", "m/go.mod:6: ", "m/go.mod:9: tool "} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// go.work's replace lines of our modules move from the last release to
// the new version; nothing else does.
func TestWorkRewrites(t *testing.T) {
	in := `go 1.26.0

use .

replace (
	github.com/statuspatch/statuspatch v0.9.0 => ./
	github.com/statuspatch/statuspatch/testenv v0.9.0 => ./testenv
	example.com/other v0.9.0 => ../other
)

replace github.com/statuspatch/statuspatch/cmd/statuspatch-lint v0.9.0 => ../../cmd/statuspatch-lint
replace github.com/statuspatch/statuspatch/cmd/statuspatch-gen v0.9.1 => ./cmd/statuspatch-gen
`
	want := strings.NewReplacer(
		"statuspatch v0.9.0 => ./\n", "statuspatch v0.10.0 => ./\n",
		"testenv v0.9.0", "testenv v0.10.0",
		"statuspatch-lint v0.9.0", "statuspatch-lint v0.10.0").Replace(in)
	if got := apply(in, workRewrites("v0.9.0", "v0.10.0")); got != want {
		t.Errorf("go.work:\n%s\nwant:\n%s", got, want)
	}
}

// The install docs: every module@old, the Makefile variable, the
// "# statuspatch" version line; an old version elsewhere stays.
func TestDocRewrites(t *testing.T) {
	in := "go get github.com/statuspatch/statuspatch@v0.9.0 github.com/statuspatch/statuspatch/testenv@v0.9.0\n" +
		"GOBIN=$PWD/bin go install github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.9.0\n" +
		"STATUSPATCH_VERSION ?= v0.9.0\n" +
		"    version: v0.9.0  # statuspatch\n" +
		"    version: v0.9.0\n" +
		"example.com/other@v0.9.0 and statuspatch v0.9.0 and github.com/statuspatch/statuspatch@v0.9.01\n" +
		"+\tgithub.com/statuspatch/statuspatch/testenv/explore v0.9.0\n" +
		"\tgithub.com/statuspatch/statuspatch v0.9.0 // indirect\n" +
		"see github.com/statuspatch/statuspatch v0.9.0\n"
	want := "go get github.com/statuspatch/statuspatch@v0.10.0 github.com/statuspatch/statuspatch/testenv@v0.10.0\n" +
		"GOBIN=$PWD/bin go install github.com/statuspatch/statuspatch/cmd/statuspatch-gen@v0.10.0\n" +
		"STATUSPATCH_VERSION ?= v0.10.0\n" +
		"    version: v0.10.0  # statuspatch\n" +
		"    version: v0.9.0\n" +
		"example.com/other@v0.9.0 and statuspatch v0.9.0 and github.com/statuspatch/statuspatch@v0.9.01\n" +
		"+\tgithub.com/statuspatch/statuspatch/testenv/explore v0.10.0\n" +
		"\tgithub.com/statuspatch/statuspatch v0.10.0 // indirect\n" +
		"see github.com/statuspatch/statuspatch v0.9.0\n"
	if got := apply(in, docRewrites("v0.9.0", "v0.10.0")); got != want {
		t.Errorf("docs:\n%s\nwant:\n%s", got, want)
	}
}

func TestNoReplace(t *testing.T) {
	if err := noReplace("x/go.mod", []byte("module m\n\nrequire a v1.0.0 // replace me\n")); err != nil {
		t.Errorf("no replace: %v", err)
	}
	err := noReplace("x/go.mod", []byte("module m\n\n  replace a => ../a\n"))
	if err == nil || !strings.Contains(err.Error(), "x/go.mod:3: replace a => ../a") {
		t.Errorf("a replace: %v", err)
	}
}

func TestLastRelease(t *testing.T) {
	v, err := lastRelease("testenv/go.mod", []byte("module m\n\nrequire (\n\tgithub.com/statuspatch/statuspatch/x v0.8.0\n\tgithub.com/statuspatch/statuspatch v0.9.0\n)\n"))
	if err != nil || v != "v0.9.0" {
		t.Errorf("lastRelease = %q, %v", v, err)
	}
	if _, err := lastRelease("testenv/go.mod", []byte("module m\n")); err == nil || !strings.Contains(err.Error(), "testenv/go.mod does not require") {
		t.Errorf("no requirement: %v", err)
	}
}

// Bad input: usage errors exit 2, a bad version 1, before any git command
// (the root is no repository).
func TestRunRefusesBadInput(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"release"}, 2, "no version"},
		{[]string{"release", "v0.9.0", "--bogus"}, 2, `unknown argument "--bogus"`},
		{[]string{"release", "v0.9.0", "--keep"}, 2, "--keep needs a folder"},
		{[]string{"release", "0.2.0"}, 1, "release: 0.2.0 is not a version like v0.2.0"},
		{[]string{"release", "v1.2.3+build"}, 1, "is not a version"},
		{[]string{"test", "x"}, 2, "test takes no arguments"},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
	} {
		var out, errw strings.Builder
		code := run(context.Background(), append([]string{"-root", root}, c.args...), &out, &errw)
		if code != c.code || !strings.Contains(errw.String(), c.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errw.String(), c.code, c.msg)
		}
	}
}
