package generator

import "testing"

func TestPackageName(t *testing.T) {
	for in, want := range map[string]string{
		"patchers":      "patchers",
		"all-kinds":     "allkinds",
		"My.Patchers":   "mypatchers",
		"2fast":         "p2fast",
		"go":            "go_",
		"---":           "patchers",
		"status_patch1": "status_patch1",
	} {
		if got := packageName(in); got != want {
			t.Errorf("packageName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitPos(t *testing.T) {
	for in, want := range map[string]struct {
		file string
		line int
	}{
		"/a/b.go:12:3":  {"/a/b.go", 12},
		"/a/b.go:12":    {"/a/b.go", 12},
		"c:/x/b.go:7:1": {"c:/x/b.go", 7},
		"pkg:-":         {"pkg:-", 0},
		"":              {"", 0},
	} {
		if f, l := splitPos(in); f != want.file || l != want.line {
			t.Errorf("splitPos(%q) = %q, %d; want %q, %d", in, f, l, want.file, want.line)
		}
	}
}
