package lines

import (
	"strings"
	"testing"
)

func steps(ss []Step) string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Kind+":"+s.Line.Name)
	}
	return strings.Join(out, " ")
}

// TestCompat: hack/compat.sh's choice of lines for each command and
// selection.
func TestCompat(t *testing.T) {
	tab := parse(t, sample)
	for _, c := range []struct {
		cmd  string
		sel  []string
		want string
	}{
		{"test", nil, "line:v0.22 line:v0.23 line:v0.24 line:v0.25 below:v0.21"},
		{"test", []string{"v0.23"}, "line:v0.23"},
		{"test", []string{"v0.23", "below"}, "line:v0.23 below:v0.21"},
		{"test", []string{"below"}, "below:v0.21"},
		{"test", []string{"v0.21"}, "below:v0.21"},
		{"test", []string{"older"}, "line:v0.22 line:v0.23 line:v0.24"},
		{"build", nil, "line:v0.22 line:v0.23 line:v0.24 line:v0.25"},
		{"build", []string{"older"}, "line:v0.22 line:v0.23 line:v0.24"},
		{"build", []string{"workspace", "v0.22"}, "line:v0.25 line:v0.22"},
		{"update", nil, "line:v0.22 line:v0.23 line:v0.24 line:v0.25 below:v0.21"},
	} {
		got, err := tab.Compat(c.cmd, c.sel...)
		if err != nil {
			t.Errorf("Compat(%s, %q): %v", c.cmd, c.sel, err)
			continue
		}
		if steps(got) != c.want {
			t.Errorf("Compat(%s, %q) = %s, want %s", c.cmd, c.sel, steps(got), c.want)
		}
	}
	for _, c := range []struct {
		cmd  string
		sel  []string
		want string
	}{
		{"build", []string{"below"}, "tested (compat.sh test below), not built"},
		{"update", []string{"v0.22"}, "takes no selector"},
		{"test", []string{"v0.30"}, "no line v0.30"},
		{"run", nil, `unknown command "run"`},
	} {
		if _, err := tab.Compat(c.cmd, c.sel...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compat(%s, %q): %v, want an error with %q", c.cmd, c.sel, err, c.want)
		}
	}
	all, _ := tab.Compat("test")
	if got, want := all[0].String(), "line v0.22 v0.22.0 v0.34.0 go1.24.13"; got != want {
		t.Errorf("a line's step reads %q, want %q", got, want)
	}
	if got, want := all[len(all)-1].String(), "below v0.21 v0.21.0 go1.24.13"; got != want {
		t.Errorf("below's step reads %q, want %q", got, want)
	}
}

// TestPins: each module's alternate go.mod requires controller-runtime and
// its k8s.io modules at the line.
func TestPins(t *testing.T) {
	tab := parse(t, sample)
	l, _ := tab.Role(Install)
	for module, want := range map[string]string{
		"root":    "-require=sigs.k8s.io/controller-runtime@v0.23.3 -require=k8s.io/api@v0.35.4 -require=k8s.io/apimachinery@v0.35.4 -require=k8s.io/client-go@v0.35.4",
		"goldens": "-require=sigs.k8s.io/controller-runtime@v0.23.3 -require=k8s.io/api@v0.35.4 -require=k8s.io/apimachinery@v0.35.4 -require=k8s.io/client-go@v0.35.4",
		"testenv": "-require=sigs.k8s.io/controller-runtime@v0.23.3 -require=k8s.io/api@v0.35.4 -require=k8s.io/apimachinery@v0.35.4 -require=k8s.io/client-go@v0.35.4 -require=k8s.io/apiextensions-apiserver@v0.35.4 -require=k8s.io/apiserver@v0.35.4",
	} {
		got, err := l.Pins(module)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("Pins(%s) = %q, %v; want %s", module, got, err, want)
		}
	}
	if _, err := l.Pins("examples"); err == nil || !strings.Contains(err.Error(), "explore, goldens, root, testenv") {
		t.Errorf("Pins(examples): %v, want an error naming the modules", err)
	}
	b, _ := tab.Role(Below)
	if _, err := b.Pins("root"); err == nil {
		t.Errorf("Pins of the line below the floor succeeded")
	}
}
