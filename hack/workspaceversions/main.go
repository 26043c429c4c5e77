// Command workspaceversions is hack/workspace-versions.sh: a test module
// outside the workspace, at the line the workspace builds, takes the
// workspace's version of every module both graphs hold (package
// hack/internal/wsversions says why).
//
//	workspaceversions [-root ROOT] DIR [MODFILE]
//	    the module in DIR at the workspace's versions (MODFILE relative to
//	    DIR; default DIR/go.mod)
//	workspaceversions [-root ROOT] -is-line CR K8S
//	    exit 0 when the workspace builds controller-runtime CR and
//	    k8s.io/api K8S, else 1
//
// ROOT is the repository's root, whose workspace (go.work) is listed with
// the caller's GOWORK (default: the current folder).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/wsversions"
)

const usage = "usage: hack/workspace-versions.sh DIR [MODFILE]"

func main() {
	os.Exit(run(os.Args[1:], gocmd.Runner{Root: "."}, os.Stderr))
}

func run(args []string, g gocmd.Go, stderr io.Writer) int {
	fs := flag.NewFlagSet("workspaceversions", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	root := fs.String("root", ".", "the repository's root")
	isLine := fs.Bool("is-line", false, "whether the workspace builds controller-runtime CR and k8s.io/api K8S")
	if err := fs.Parse(args); err != nil || fs.NArg() < 1 || fs.NArg() > 2 || *isLine && fs.NArg() != 2 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if *isLine {
		at, err := wsversions.AtLine(g, *root, fs.Arg(0), fs.Arg(1))
		if err != nil {
			fmt.Fprintln(stderr, "workspace-versions:", err)
			return gocmd.ExitCode(err)
		}
		if !at {
			return 1
		}
		return 0
	}
	dir, modfile := fs.Arg(0), "go.mod"
	if fs.NArg() == 2 {
		modfile = fs.Arg(1)
	}
	if filepath.IsAbs(modfile) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			fmt.Fprintln(stderr, "workspace-versions:", err)
			return 1
		}
		dir = abs
	} else {
		modfile = filepath.Join(dir, modfile)
	}
	if err := wsversions.Apply(g, *root, dir, modfile, stderr); err != nil {
		fmt.Fprintln(stderr, "workspace-versions:", err)
		return gocmd.ExitCode(err)
	}
	return 0
}
