package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errcases copies the error-case module (testdata/errcases, its own go.mod)
// to a temporary directory and changes into it.
func errcases(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join(testdata, "errcases"), dir, nil)
	t.Chdir(dir)
	return dir
}

// variant writes pkg/types.go: errcases/ok/types.go in package pkg, with
// old replaced by new.
func variant(t *testing.T, dir, pkg, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "ok", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "package ok", "package "+pkg, 1)
	if !strings.Contains(src, old) {
		t.Fatalf("ok/types.go lacks %q", old)
	}
	writeFile(t, filepath.Join(dir, pkg, "types.go"), strings.Replace(src, old, new, 1))
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		setup func(t *testing.T, dir string)
		want  string
	}{{
		name: "package fails to type-check",
		args: []string{"paths=./typecheck"},
		want: "typecheck/types.go:11: Widget.Status: undefined: WidgetStatuz",
	}, {
		name: "package does not parse",
		args: []string{"paths=./syntax"},
		setup: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "syntax/types.go"), "package syntax\n\n// +kubebuilder:object:root=true\ntype Widget struct {\n\tStatus struct{ `json:\"status\"`\n}\n")
		},
		want: "syntax/types.go:5: expected '}', found `json:\"status\"`",
	}, {
		name: "malformed marker",
		args: []string{"paths=./badmarker"},
		want: `badmarker/types.go:11: malformed marker +statuspatch:generate=maybe: expected true or false, got "maybe"`,
	}, {
		name: "marker without a value",
		args: []string{"paths=./novalue"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "novalue", "// +kubebuilder:subresource:status\n", "// +kubebuilder:subresource:status\n// +statuspatch:generate=\n")
		},
		want: `novalue/types.go:11: malformed marker +statuspatch:generate=: missing value`,
	}, {
		name: "misspelt marker",
		args: []string{"paths=./typo"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "typo", "// +kubebuilder:subresource:status\n", "// +kubebuilder:subresource:status\n// +statuspatch:generat=false\n")
		},
		want: "typo/types.go:11: unknown marker +statuspatch:generat; did you mean +statuspatch:generate=false? (statuspatch-gen -w lists the markers)",
	}, {
		name: "misspelt marker prefix, on the package",
		args: []string{"paths=./typo"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "typo", "package typo", "// +statuspath:generate=false\npackage typo")
		},
		want: "typo/types.go:1: unknown marker +statuspath:generate; did you mean +statuspatch:generate=false? (statuspatch-gen -w lists the markers)",
	}, {
		name: "bare +statuspatch",
		args: []string{"paths=./bare"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "bare", "// +kubebuilder:subresource:status\n", "// +kubebuilder:subresource:status\n// +statuspatch\n")
		},
		want: "bare/types.go:11: +statuspatch names no setting; did you mean +statuspatch:generate=false (or =true)?",
	}, {
		name: "paths= finds packages but no kinds",
		args: []string{"paths=./nokinds"},
		want: "example.com/errcases/nokinds: no kinds (root types with +kubebuilder:object:root=true, +kubebuilder:subresource:status and a Status field); check paths=, or pass allowNoKinds=true if that is expected",
	}, {
		name: "paths= matches no packages",
		args: []string{"paths=./empty/..."},
		setup: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "empty", "README"), "no Go here\n")
		},
		want: "paths= matched no packages; pass allowNoKinds=true if that is expected",
	}, {
		name: "unexported kind",
		args: []string{"paths=./unexported"},
		want: "unexported/types.go:11: kind widget is unexported; a status patcher needs an exported type (add +statuspatch:generate=false to widget to skip it)",
	}, {
		name: "status is not a struct",
		args: []string{"paths=./notstruct"},
		want: "notstruct/types.go:11: Widget.Status has type string, want a struct or a pointer to a struct (add +statuspatch:generate=false to Widget to skip it)",
	}, {
		name: "generate=true without status subresource",
		args: []string{"paths=./nosubresource"},
		want: "nosubresource/types.go:11: +statuspatch:generate=true on Widget, which has no status subresource (+kubebuilder:subresource:status)",
	}, {
		name: "generate=true without Status field",
		args: []string{"paths=./nostatusfield"},
		want: "nostatusfield/types.go:9: +statuspatch:generate=true on Widget, which has no Status field",
	}, {
		name: "generated name already declared",
		args: []string{"paths=./scope"},
		want: "scope/types.go:11: the generated NewWidgetStatusPatcher for kind Widget collides with the declaration at scope/types.go:18",
	}, {
		name: "two kinds' generated names collide in one output dir",
		args: []string{"paths={./dup/a,./dup/b}", "output:dir=./out"},
		want: "dup/b/types.go:11: WidgetStatusPatcher for example.com/errcases/dup/b.Widget collides with the one for example.com/errcases/dup/a.Widget at dup/a/types.go:11; generate the two packages into separate output dirs",
	}, {
		name: "output dir not writable",
		args: []string{"paths=./ok", "output:dir=./afile/sub"},
		setup: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "afile"), "a file, not a directory\n")
		},
		want: "afile/sub/zz_generated.statuspatch.go: cannot write: mkdir ", // ... afile: not a directory
	}, {
		name: "write token on a field that is not a string",
		args: []string{"paths=./tokenint"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "tokenint", "type WidgetStatus struct{}", "type WidgetStatus struct {\n\t// +statuspatch:writeToken\n\tToken int64 `json:\"token\"`\n}")
		},
		want: "tokenint/types.go:8: +statuspatch:writeToken on Token, a int64: the token must be a string field",
	}, {
		name: "write token outside a kind's status",
		args: []string{"paths=./tokenspec"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "tokenspec", "type WidgetStatus struct{}", "type WidgetStatus struct{}\n\n// WidgetSpec is not status.\ntype WidgetSpec struct {\n\t// +statuspatch:writeToken\n\tToken string `json:\"token\"`\n}")
		},
		want: "tokenspec/types.go:11: +statuspatch:writeToken on WidgetSpec.Token, which is not a field of a kind's status: mark a string field of the status of a kind with a status subresource",
	}, {
		name: "write token nested below the status",
		args: []string{"paths=./tokennested"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "tokennested", "type WidgetStatus struct{}", "type WidgetStatus struct {\n\tLast Step `json:\"last\"`\n}\n\n// Step is nested.\ntype Step struct {\n\t// +statuspatch:writeToken\n\tToken string `json:\"token\"`\n}")
		},
		want: "tokennested/types.go:13: +statuspatch:writeToken on Token (status.last.token): the token must be a top-level field of Widget's status",
	}, {
		name: "two write token fields",
		args: []string{"paths=./tokentwo"},
		setup: func(t *testing.T, dir string) {
			variant(t, dir, "tokentwo", "type WidgetStatus struct{}", "type WidgetStatus struct {\n\t// +statuspatch:writeToken\n\tA string `json:\"a\"`\n\t// +statuspatch:writeToken\n\tB string `json:\"b\"`\n}")
		},
		want: "tokentwo/types.go:10: +statuspatch:writeToken on B and on A (line 8): one token field per kind (Widget)",
	}, {
		name: "unknown option",
		args: []string{"paths=./ok", "bogus=1"},
		want: `statuspatch-gen: unknown option "bogus=1"`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := errcases(t)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "output:") {
				args = append(args, "output:none")
			}
			err := run(args, nil)
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			got := err.Error()
			if strings.HasSuffix(tc.want, " ") {
				if !strings.HasPrefix(got, tc.want) {
					t.Fatalf("error:\n%s\nwant prefix:\n%s", got, tc.want)
				}
				return
			}
			if got != tc.want {
				t.Fatalf("error:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestNothingWrittenOnError: one broken package stops every file, including
// those of good packages and stale-file removal.
func TestNothingWrittenOnError(t *testing.T) {
	dir := errcases(t)
	stale := filepath.Join(dir, "nokinds", fileName)
	writeFile(t, stale, generatedLine+"\n\npackage nokinds\n")
	err := run([]string{"paths={./ok,./notstruct,./nokinds}"}, nil)
	if err == nil || !strings.Contains(err.Error(), "notstruct/types.go:11:") {
		t.Fatalf("error = %v, want the notstruct error", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ok", fileName)); !os.IsNotExist(err) {
		t.Fatalf("ok/%s written although generation failed (stat: %v)", fileName, err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Fatalf("stale file removed although generation failed: %v", err)
	}
}

// TestNothingWrittenOnWriteError: a file that cannot be written stops the
// others (they are written to temporary files first).
func TestNothingWrittenOnWriteError(t *testing.T) {
	dir := errcases(t)
	if err := os.MkdirAll(filepath.Join(dir, "dup/b", fileName), 0o755); err != nil {
		t.Fatal(err)
	}
	err := run([]string{"paths={./dup/a,./dup/b}"}, nil)
	if err == nil || err.Error() != "dup/b/"+fileName+": cannot write: not a regular file" {
		t.Fatalf("error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dup/a", fileName)); !os.IsNotExist(err) {
		t.Fatalf("dup/a/%s written although dup/b failed (stat: %v)", fileName, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "dup/a"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}
