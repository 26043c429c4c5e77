package installroute

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
)

// The route's commands: each runs in a folder with the user's environment
// (env: the line's Go first in PATH, the release proxy), its output the
// route's unless captured.

// failure is the route's error: it ends the run with "PROG: msg".
type failure struct{ msg string }

func (f failure) Error() string { return f.msg }

func failf(format string, args ...any) error { return failure{fmt.Sprintf(format, args...)} }

// runner runs commands for the route.
type runner struct {
	prog   string   // the script the messages name: install-test, adopt-lines
	dir    string   // the folder of a command given none: the route's scratch folder (outside any module)
	env    []string // the user's environment; nil: the caller's
	stdout io.Writer
	stderr io.Writer
	start  time.Time
}

// step prints the heading of a step, with the seconds since the start.
func (r *runner) step(format string, args ...any) {
	fmt.Fprintf(r.stdout, "\n=== %s: %s (%ds)\n", r.prog, fmt.Sprintf(format, args...), int(time.Since(r.start).Seconds()))
}

func (r *runner) printf(format string, args ...any) { fmt.Fprintf(r.stdout, format, args...) }

func (r *runner) command(dir string, extra []string, name string, args ...string) *exec.Cmd {
	env := append(append([]string(nil), r.env...), extra...)
	if r.env == nil {
		env = append(os.Environ(), extra...)
	}
	// exec.Command looks name up in this process's PATH; the user's PATH
	// (the line's go first) is env's.
	c := exec.Command(lookPath(name, env), args...)
	c.Dir = cmp.Or(dir, r.dir)
	c.Env = env
	c.Stdout, c.Stderr = r.stdout, r.stderr
	return c
}

// run runs name with args in dir; its output is the route's.
func (r *runner) run(dir string, name string, args ...string) error {
	return r.command(dir, nil, name, args...).Run()
}

// shell is a shell line as a user types it (bash -euo pipefail -c), with
// extra settings over the environment.
func (r *runner) shell(dir, line string, extra []string) *exec.Cmd {
	return r.command(dir, extra, "bash", "-euo", "pipefail", "-c", line)
}

// sh runs a shell line; its output is the route's.
func (r *runner) sh(dir, line string, extra ...string) error {
	return r.shell(dir, line, extra).Run()
}

// shCombined runs a shell line and returns its standard output and error
// together, not printed.
func (r *runner) shCombined(dir, line string, extra ...string) (string, error) {
	var b bytes.Buffer
	c := r.shell(dir, line, extra)
	c.Stdout, c.Stderr = &b, &b
	err := c.Run()
	return b.String(), err
}

// output runs name with args in dir and returns its standard output,
// trimmed; its standard error is the route's.
func (r *runner) output(dir string, extra []string, name string, args ...string) (string, error) {
	var b bytes.Buffer
	c := r.command(dir, extra, name, args...)
	c.Stdout = &b
	err := c.Run()
	return strings.TrimSpace(b.String()), err
}

// environ is base without the variables named in drop, then set over it.
func environ(base []string, drop []string, set ...string) []string {
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, d := range drop {
			if k == d {
				keep = false
			}
		}
		for _, s := range set {
			if sk, _, _ := strings.Cut(s, "="); sk == k {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

// firstLine and lastLine of a command's output.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return l
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

// executable reports whether path is a file with an execute bit.
func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// lookPath finds name as a command in env's PATH (its last setting, as
// os/exec takes it): name itself when it holds a slash or is found nowhere,
// which the run then reports.
func lookPath(name string, env []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if p := filepath.Join(dir, name); executable(p) {
			return p
		}
	}
	return name
}

// teeAll runs a shell line with extra settings, its standard output and
// error together (as 2>&1 | tee) printed and returned.
func (r *runner) teeAll(dir, line string, extra ...string) (string, error) {
	var b bytes.Buffer
	c := r.shell(dir, line, extra)
	w := io.MultiWriter(r.stdout, &b)
	c.Stdout, c.Stderr = w, w
	err := c.Run()
	return b.String(), err
}

// userGo runs internal/gocmd's commands (internal/wsversions') as the
// route's others: the user's go and environment, GOWORK as each command
// says (unset for the workspace's), the route's output.
func (r *runner) userGo() gocmd.Runner {
	return gocmd.Runner{Root: ".", Go: lookPath("go", r.env), Environ: r.env, Env: []string{"GOWORK="}, Stdout: r.stdout, Stderr: r.stderr}
}
