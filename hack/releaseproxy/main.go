// Command releaseproxy is hack/modproxy-env.sh's logic
// (hack/internal/releaseproxy): the shell functions that script defines
// for the scripts that source it call it, in the caller's folder and
// environment, built once per shell (it runs in the scripts' EXIT traps,
// after they pointed PATH at an older Go).
//
//	releaseproxy cache
//	    print the release cache's folder (created): where its lock is
//	releaseproxy lock -fd N -cache DIR
//	    take the exclusive flock on descriptor N, the shell's open lock
//	    file of DIR (saying so when another run holds it); the lock stays
//	    with the shell's descriptor when this program exits
//	releaseproxy use -repo REPO -version VERSION -work WORK [-env-fd N]
//	    drop this repository's modules from the module cache, write the
//	    proxy of REPO at VERSION in WORK/proxy (module@version lines on
//	    standard output), then write the go command's environment for it
//	    as export lines to descriptor N (default: standard output)
//	releaseproxy done
//	    drop this repository's modules from the module cache again
//
// Exit status: 2 for a usage error, 1 for any other failure.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/statuspatch/statuspatch/hack/internal/gocmd"
	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

const usage = "usage: releaseproxy cache | lock -fd N -cache DIR | use -repo REPO -version VERSION -work WORK [-env-fd N] | done"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "releaseproxy: %v\n", err)
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	return 1
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError{"no command"}
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fd := fs.Int("fd", -1, "")
	cache := fs.String("cache", "", "")
	repo := fs.String("repo", "", "")
	version := fs.String("version", "", "")
	work := fs.String("work", "", "")
	envFD := fs.Int("env-fd", 1, "")
	if err := fs.Parse(args[1:]); err != nil {
		return usageError{fmt.Sprintf("%s: %v", args[0], err)}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("%s: unexpected argument %q", args[0], fs.Arg(0))}
	}
	g := gocmd.Runner{Root: "."}
	switch args[0] {
	case "cache":
		dir, err := releaseproxy.CacheDir(os.Getenv)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("the release cache's folder: %w", err)
		}
		_, err = fmt.Fprintln(stdout, dir)
		return err
	case "lock":
		if *fd < 3 || *cache == "" {
			return usageError{"lock: -fd N (3 or more) and -cache DIR are required"}
		}
		return releaseproxy.LockDescriptor(*fd, filepath.Join(*cache, releaseproxy.LockName), func() { fmt.Fprintln(stderr, releaseproxy.Waiting(*cache)) })
	case "use":
		if *repo == "" || *version == "" || *work == "" {
			return usageError{"use: -repo, -version and -work are required"}
		}
		out := stdout
		if *envFD != 1 {
			out = os.NewFile(uintptr(*envFD), fmt.Sprintf("descriptor %d", *envFD))
		}
		env, _, err := releaseproxy.Proxy{Repo: *repo, Version: *version, Work: *work, Listing: stdout}.Use(g)
		if err != nil {
			return err
		}
		_, err = io.WriteString(out, releaseproxy.Exports(env))
		return err
	case "done":
		_, caches, err := releaseproxy.GoEnv(g, ".")
		if err != nil {
			return err
		}
		return releaseproxy.Drop(caches)
	}
	return usageError{fmt.Sprintf("unknown command %q", args[0])}
}
