package installroute

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// Adopt is adoption at one older supported line (TestAdopt/LINE), from
// the proxy of this checkout. A scratch module pinned the way operators
// pin (lines.Line.GoMod) runs README.md's go get lines with that line's
// Go; then no requirement it had moves, its go line and replace directives
// stay as they were, and it builds with the runtime in it. Install takes
// the install line all the way; hack/compat.sh runs testenv's and the
// generated code's tests at every line.
func Adopt(c Config, l lines.Line) error {
	if l.Has(lines.Below) {
		return failf("line %s is below the floor: not supported", l.Name)
	}
	rt, err := newRoute(c, "adopt-lines")
	if err != nil {
		return err
	}
	defer rt.cleanup()
	readme, err := rt.doc("README.md")
	if err != nil {
		return err
	}
	gets := goGets(readme)
	if len(gets) < 2 {
		return failf("README.md's install block has %d go get lines, want the runtime's and testenv's", len(gets))
	}
	rt.r.env = environ(os.Environ(), nil, append(releaseproxy.Environ(rt.settings), "GOTOOLCHAIN="+l.Toolchain)...)
	return rt.adoptAt(l, gets)
}

// goGets is the go get lines of README.md's install block, as written.
func goGets(readme string) []string {
	var out []string
	for _, l := range block(readme, "install") {
		if strings.HasPrefix(l, "go get ") {
			out = append(out, l)
		}
	}
	return out
}

const adoptBefore = `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"
)

func main() { _ = ctrl.NewManager }
`

// adoptAfter: the operator now uses the runtime, and its tests testenv.
const adoptAfter = `package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/statuspatch/statuspatch/patcher"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		panic(err)
	}
	_ = patcher.ForManager(mgr, patcher.WithFieldOwner("adopt"))
}
`

const adoptTest = `package main

import (
	"testing"

	"github.com/statuspatch/statuspatch/testenv"
)

func TestServer(t *testing.T) { _ = testenv.Start }
`

func (rt *route) adoptAt(l lines.Line, gets []string) error {
	start := time.Now()
	rt.r.printf("=== adopt-lines: %s: go %s, controller-runtime %s, k8s.io %s (require and replace), %s\n", l.Name, l.GoLine(), l.CR, l.K8s, l.Toolchain)
	rt.op = filepath.Join(rt.work, l.Name)
	if err := os.MkdirAll(rt.op, 0o755); err != nil {
		return err
	}
	for name, text := range map[string]string{"go.mod": l.GoMod("example.com/adopt"), "main.go": adoptBefore} {
		if err := os.WriteFile(rt.file(name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	if rt.r.run(rt.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed before statuspatch (above)")
	}
	before, err := readPins(rt.file("go.mod"))
	if err != nil {
		return err
	}
	for name, text := range map[string]string{"main.go": adoptAfter, "main_test.go": adoptTest} {
		if err := os.WriteFile(rt.file(name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	for _, g := range gets {
		rt.r.printf("$ %s\n", g)
		if rt.r.sh(rt.op, g) != nil {
			return failf("README.md's line failed: %s", g)
		}
	}
	if rt.r.run(rt.op, "go", "mod", "tidy") != nil {
		return failf("go mod tidy failed after the README's go get lines (above)")
	}
	if err := rt.checkPins(before, "the README's go get lines and go mod tidy"); err != nil {
		return err
	}
	now, err := readPins(rt.file("go.mod"))
	if err != nil {
		return err
	}
	if now.req[releaseproxy.Module] == "" {
		return failf("the runtime is not required after the README's go get")
	}
	if rt.r.run(rt.op, "go", "build", "./...") != nil {
		return failf("go build ./... failed with the runtime in the module (above)")
	}
	rt.r.printf("=== adopt-lines: %s: builds (%ds)\n", l.Name, int(time.Since(start).Seconds()))
	return nil
}
