// Command gomod runs a go command that edits a nested module's
// go.mod/go.sum (go get, go mod tidy) outside the workspace, as the module
// is published (hack/gomod.sh). The published go.mod files require each
// other at the last release, which the go command can't fetch before it
// is tagged, so this serves the checkout's modules at that version (the
// one testenv/go.mod requires) from a file-based proxy
// (installroute.OpenProxy: under the release cache's lock, its copies
// dropped from the module cache at the end).
//
//	gomod MODULE_DIR GO_ARGS...    (in the repository's root)
//	hack/gomod.sh testenv mod tidy
//	hack/gomod.sh examples get github.com/onsi/gomega@v1.39.0
//
// go.sum lines for this repository's modules belong to a release commit
// (hack/release.sh writes them): between releases the checkout is not the
// released version, so its hashes would be wrong. None are kept, before
// the command or after it. Exit status: the go command's; 2 for a usage
// error, 1 for any other failure.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/statuspatch/statuspatch/hack/installroute"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, "usage: hack/gomod.sh MODULE_DIR GO_ARGS...")
		return 2
	}
	root, err := os.Getwd()
	if err == nil {
		err = goMod(root, args[0], args[1:], stdout, stderr)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		fmt.Fprintf(stderr, "gomod: %v\n", err)
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(stderr, "gomod: %v\n", err)
		return 1
	}
	return 0
}

// goMod runs go args in root/dir on the proxy of root's modules.
func goMod(root, dir string, args []string, stdout, stderr io.Writer) (err error) {
	// An interrupt reaches the go command, which stops; the proxy's copies
	// are dropped and the lock released after it all the same.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	work, err := os.MkdirTemp("", "statuspatch-gomod-")
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, installroute.RemoveAll(work)) }()
	proxy, err := installroute.OpenProxy(root, "", work, io.Discard, stderr)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, proxy.Close()) }()
	sum := filepath.Join(root, dir, "go.sum")
	if err := DropOurs(sum); err != nil {
		return err
	}
	c := exec.Command("go", args...)
	c.Dir, c.Stdin, c.Stdout, c.Stderr = filepath.Join(root, dir), os.Stdin, stdout, stderr
	c.Env = append(os.Environ(), releaseproxy.Environ(proxy.Settings)...)
	if err := c.Run(); err != nil {
		return errors.Join(fmt.Errorf("go %s in %s: %w", strings.Join(args, " "), dir, err), DropOurs(sum))
	}
	return DropOurs(sum)
}

// DropOurs removes this repository's modules' lines from the go.sum file
// at path, if there is one.
func DropOurs(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var kept strings.Builder
	for l := range strings.Lines(string(b)) {
		if !strings.HasPrefix(l, releaseproxy.Module+" ") && !strings.HasPrefix(l, releaseproxy.Module+"/") {
			kept.WriteString(l)
		}
	}
	return os.WriteFile(path, []byte(kept.String()), 0o644)
}
