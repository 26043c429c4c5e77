// Command checkouttimes gives every tracked file and folder of a clean git
// checkout a modification time taken from its content (its git object id),
// so that go's test cache works across fresh checkouts:
//
//	checkouttimes [-root DIR]
//
// go test re-uses a cached result only when each file the test opened in
// its module is as it was, and it compares a file by its size and
// modification time, a folder by those of its entries (cmd/go's
// computeTestInputsID). A fresh clone stamps every file with the time of
// the clone, so CI, which tests a clean checkout, ran again every test that
// reads a file of its module (testdata, goldens, CRDs) even where nothing
// it reads had changed. With the times from the content, a file unchanged
// since the last run has the time it had then, and a changed file has
// another.
//
// A file's time is its blob id's first 8 bytes as nanoseconds after
// 2000-01-01 UTC, modulo 20 years; a folder's is its tree id's (the ids of
// everything under it). Only a clean checkout is stamped (git status shows
// no change to a tracked file): an edited file would take its committed
// content's time. Otherwise, outside a git work tree, or where git fails,
// it says why and changes nothing, with exit status 0: the times only
// spare work. A time it cannot set is a failure (exit status 1).
// Symbolic links and submodules are left as they are.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: checkouttimes [-root DIR]"

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("checkouttimes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	root := fs.String("root", ".", "the checkout's root")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	n, top, err := stamp(*root)
	var skip skipped
	switch {
	case errors.As(err, &skip):
		fmt.Fprintf(stdout, "checkouttimes: %v: modification times left as they are\n", skip.why)
		return 0
	case err != nil:
		fmt.Fprintln(stderr, "checkouttimes:", err)
		return 1
	}
	fmt.Fprintf(stdout, "checkouttimes: %d files and folders of %s take their times from their content\n", n, top)
	return 0
}

// skipped is why a checkout was left as it is.
type skipped struct{ why string }

func (s skipped) Error() string { return s.why }

// base and span bound the times given: all in the past, none near now
// (go's test cache refuses a file changed in its last seconds).
var (
	base = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	span = uint64(20 * 365 * 24 * time.Hour)
)

// timeOf is the time of the object with the hex id: its first 8 bytes as
// nanoseconds after base, modulo span.
func timeOf(id string) (time.Time, error) {
	b, err := hex.DecodeString(id)
	if err != nil || len(b) < 8 {
		return time.Time{}, fmt.Errorf("not a git object id: %q", id)
	}
	return base.Add(time.Duration(binary.BigEndian.Uint64(b[:8]) % span)), nil
}

// An entry is a tracked path (relative to the root, slash-separated;
// "" for the root itself) and its object id.
type entry struct{ path, id string }

// stamp sets the times of the tracked files and folders of the work tree
// holding root; it returns how many and the work tree's top folder, or
// skipped.
func stamp(root string) (int, string, error) {
	git := func(args ...string) ([]byte, error) {
		c := exec.Command("git", append([]string{"-C", root}, args...)...)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		out, err := c.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	top, err := git("rev-parse", "--show-toplevel")
	if err != nil {
		return 0, "", skipped{fmt.Sprintf("%s is not in a git work tree", root)}
	}
	root = strings.TrimSpace(string(top))
	status, err := git("status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return 0, "", skipped{err.Error()}
	}
	if len(bytes.TrimSpace(status)) > 0 {
		return 0, "", skipped{fmt.Sprintf("%s has changes to tracked files (git status)", root)}
	}
	files, err := git("ls-files", "-s", "-z")
	if err != nil {
		return 0, "", skipped{err.Error()}
	}
	trees, err := git("ls-tree", "-r", "-t", "-z", "HEAD")
	if err != nil {
		return 0, "", skipped{err.Error()}
	}
	rootTree, err := git("rev-parse", "HEAD^{tree}")
	if err != nil {
		return 0, "", skipped{err.Error()}
	}
	entries, err := parse(files, trees)
	if err != nil {
		return 0, "", skipped{err.Error()}
	}
	entries = append(entries, entry{"", strings.TrimSpace(string(rootTree))})
	for _, e := range entries {
		t, err := timeOf(e.id)
		if err != nil {
			return 0, "", fmt.Errorf("%s: %w", e.path, err)
		}
		if err := os.Chtimes(filepath.Join(root, filepath.FromSlash(e.path)), t, t); err != nil {
			return 0, "", err
		}
	}
	return len(entries), root, nil
}

// parse reads git ls-files -s -z (the index's regular files) and git
// ls-tree -r -t -z HEAD (its folders): files, then folders. (A time set
// inside a folder leaves the folder's as it is: the order is free.)
func parse(files, trees []byte) ([]entry, error) {
	var out, dirs []entry
	for rec := range bytes.SplitSeq(files, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// <mode> SP <object> SP <stage> TAB <path>
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-files -s: unexpected line %q", rec)
		}
		if f[0] == "100644" || f[0] == "100755" {
			out = append(out, entry{string(path), f[1]})
		}
	}
	for rec := range bytes.SplitSeq(trees, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// <mode> SP <type> SP <object> TAB <path>
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		if f[1] == "tree" {
			dirs = append(dirs, entry{string(path), f[2]})
		}
	}
	return append(out, dirs...), nil
}
