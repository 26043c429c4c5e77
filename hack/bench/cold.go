package bench

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/machine"
)

// Cold measures a new user's cold path to the explorer's first schedule
// on a real operator: examples/realops copied into a scratch module in
// Work (this checkout's runtime and testenv by replace), with an empty
// module cache, build cache and testenv-assets cache of its own, then the
// documented steps one by one, each timed (wall, CPU as user + sys, peak
// RSS): go mod download; testenv-assets use -p path module (the full
// API's kube-apiserver at the operator's own k8s.io release, sharing
// compiled packages with the next step); testenv-assets warm ./...; go
// test -run TestExploreRabbitmqCluster (the link, then the exploration).
// Use replaces "module" (e.g. "1.N.x -align=false": the route before
// sharing). Run it on an idle machine for figures that mean anything.
type Cold struct {
	Root, Work string
	Use        string
}

// ColdGoMod is the realops go.mod with its replace paths made absolute.
func ColdGoMod(gomod, root string) string {
	gomod = strings.ReplaceAll(gomod, "=> ../../testenv", "=> "+filepath.Join(root, "testenv"))
	return strings.ReplaceAll(gomod, "=> ../..\n", "=> "+root+"\n")
}

// ColdSteps are the timed steps: a name and the command's words.
func (c Cold) ColdSteps() [][]string {
	assets := "github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets"
	return [][]string{
		{"1 go mod download", "go", "mod", "download"},
		append([]string{"2 testenv-assets use", "go", "run", assets, "use", "-p", "path"}, strings.Fields(c.Use)...),
		{"3 testenv-assets warm", "go", "run", assets, "warm", "./..."},
		{"4 go test (link and explore)", "env", "STATUSPATCH_REQUIRE_FULLAPI=1", "go", "test", "-vet=off", "-count=1", "-v", "-run", "TestExploreRabbitmqCluster$", "."},
	}
}

// Run copies the operator, runs the steps and prints their times and the
// caches' sizes.
func (c Cold) Run(w io.Writer) error {
	if err := os.RemoveAll(c.Work); err != nil {
		return err
	}
	op := filepath.Join(c.Work, "op")
	if err := os.MkdirAll(op, 0o755); err != nil {
		return err
	}
	src := filepath.Join(c.Root, "examples", "realops")
	files, _ := filepath.Glob(filepath.Join(src, "*.go"))
	for _, f := range append(files, filepath.Join(src, "go.mod"), filepath.Join(src, "go.sum")) {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if filepath.Base(f) == "go.mod" {
			b = []byte(ColdGoMod(string(b), c.Root))
		}
		if err := os.WriteFile(filepath.Join(op, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(c.Work, "cache"), "GOPATH=" + filepath.Join(c.Work, "gopath"),
		"GOWORK=off", "GOFLAGS=-modcacherw", "GOCACHE=", "GOMODCACHE="}
	var times []string
	for _, s := range c.ColdSteps() {
		fmt.Fprintf(w, "=== %s: %s (load: %s)\n", s[0], strings.Join(s[1:], " "), machine.Load())
		u, err := Cmd{Dir: op, Env: env, Args: s[1:]}.Run(w, w)
		times = append(times, fmt.Sprintf("%s: %.2f s wall, %.2f s CPU, %d KB peak RSS", s[0], u.Wall.Seconds(), u.CPU.Seconds(), u.PeakKiB))
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "--- times\n%s\n", strings.Join(times, "\n"))
	for _, d := range []string{filepath.Join(c.Work, "cache", "go-build"), filepath.Join(c.Work, "gopath", "pkg", "mod")} {
		fmt.Fprintf(w, "%6.0f MiB %s\n", float64(duBytes(d))/(1<<20), d)
	}
	return nil
}

// duBytes is the size of the files under dir.
func duBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if i, err := d.Info(); err == nil {
				n += i.Size()
			}
		}
		return nil
	})
	return n
}
