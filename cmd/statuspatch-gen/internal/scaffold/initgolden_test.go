package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInitGolden runs init on kubebuilder's own scaffolds, in
// testdata/init/<case>/before (v4.15: kubebuilder v4.15.0's project-v4
// Makefile, PROJECT, .golangci.yml, .custom-gcl.yml and controller
// suite_test.go, which stays on envtest, as PROJECT has webhooks;
// v4.15-no-webhooks: the same Makefile, a PROJECT without webhooks and
// v4.15's suite_test.go, which moves to testenv, and make test builds no
// envtest binaries; v4.3: v4.3.0's Makefile, golangci-lint v1 config and
// suite_test.go, which moves to testenv while make test keeps envtest, as
// the Makefile has no setup-envtest target; v4.0: v4.0.0's Makefile, whose
// setup-envtest binary is named after its version, and no reconciler
// source, so no starter test; v4.15-token: v4.15-no-webhooks' Makefile and
// suite with two kinds, Ledger's status with a write token and Widget's
// without, which init names and leaves as they are; v4.15-owns-configmaps:
// v4.15-no-webhooks' Makefile and suite, a reconciler that creates, lists
// and Owns ConfigMaps, so the suite stays on envtest, make test keeps
// building its binaries and the starter test asks testenv.WithFullAPI();
// v4.15-crd-only: the same project whose reconciler uses its own kind
// only (an event type, a core/v1 field and an RBAC marker for Events are
// no calls on a built-in kind) and a harness behind a build tag that
// imports envtest and creates ConfigMaps, which make test never compiles,
// so the suite moves to testenv and make test builds no binaries;
// v3-main-wrapper: v3 whose main.go builds the reconciler with a client of
// its own, client.WithFieldOwner(mgr.GetClient(), ...), which init keeps,
// leaving SetupWithManager as it is and saying main.go's line;
// v3-main-assign: v3 whose SetupWithManager sets the client under if
// r.Client == nil and whose main.go sets rec.Client = mgr.GetClient()
// after the literal, which becomes patcher.ForManager): -dry-run prints
// testdata/init/<case>/dry-run.diff and writes nothing; init then makes the
// tree testdata/init/<case>/after; a second run changes nothing.
// -update rewrites after/ and dry-run.diff.
//
// A case whose folder has a file base naming another case (v3-main-assign
// and v3-main-wrapper name v3) holds only what differs from that case:
// before/ and flags are the base's with the case's own over them; after/
// holds only the files whose text is not the base's after/; dry-run.diff
// writes a file's diff that is the base's as its two header lines and the
// line "same as ../<base>/dry-run.diff". Each case is compared whole, with
// the base's goldens filled in, so a change in what init writes fails
// every case. -update writes the differences from the base's output made
// anew, not from its goldens, so what it writes does not hang on their
// being up to date; bases run first.
func TestInitGolden(t *testing.T) {
	for _, c := range initCases(t) {
		t.Run(c.name, func(t *testing.T) {
			run := c.run(t)
			if *update {
				c.update(t, run)
			}
			compareWant(t, c.golden(), c.wantDiff(t), run.dryRun)
			compareTrees(t, "after -dry-run", run.afterDryRun, run.before)
			wantAfter := c.wantAfter(t)
			compareTrees(t, "after init", run.after, wantAfter)

			out := runInit(t, append(slices.Clone(run.args), run.dir))
			if !strings.Contains(out, "nothing to change") {
				t.Errorf("second run did not say it changed nothing:\n%s", out)
			}
			compareTrees(t, "after a second init", readTree(t, run.dir), wantAfter)
			out = runInit(t, append(slices.Clone(run.args), "-dry-run", run.dir))
			if strings.Contains(out, "\n+++ ") || strings.HasPrefix(out, "---") {
				t.Errorf("-dry-run after init prints a diff:\n%s", out)
			}
		})
	}
}

// initCase is a folder of testdata/init; base is the case its file base
// names, or "".
type initCase struct{ name, base string }

// initCases are testdata/init's cases, each base before the cases that
// name it.
func initCases(t *testing.T) []initCase {
	t.Helper()
	befores, err := filepath.Glob(filepath.Join("testdata", "init", "*", "before"))
	if err != nil || len(befores) == 0 {
		t.Fatalf("no testdata/init/*/before: %v", err)
	}
	var cases []initCase
	for _, before := range befores {
		c := initCase{name: filepath.Base(filepath.Dir(before))}
		if b, err := os.ReadFile(c.path("base")); err == nil {
			c.base = strings.TrimSpace(string(b))
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		if c.base == "" {
			continue
		}
		i := slices.IndexFunc(cases, func(b initCase) bool { return b.name == c.base })
		if i < 0 || cases[i].base != "" {
			t.Fatalf("%s: %q is no case of testdata/init without a base of its own", c.path("base"), c.base)
		}
	}
	// "" first: a case with no base before those that name one
	slices.SortStableFunc(cases, func(a, b initCase) int { return strings.Compare(a.base, b.base) })
	return cases
}

func (c initCase) path(elem ...string) string {
	return filepath.Join(append([]string{"testdata", "init", c.name}, elem...)...)
}

// layers are the cases whose inputs make this one's, the last on top.
func (c initCase) layers() []initCase {
	if c.base == "" {
		return []initCase{c}
	}
	return []initCase{{name: c.base}, c}
}

// initRun is what init did on a copy of a case's before/: the folder, the
// flags it was given, its files before, after -dry-run and after init, and
// what -dry-run printed.
type initRun struct {
	dir, dryRun                string
	args                       []string
	before, afterDryRun, after map[string]string
}

// run copies the case's before/ to a new folder and runs init on it with
// its flags, first with -dry-run, then for real.
func (c initCase) run(t *testing.T) initRun {
	t.Helper()
	r := initRun{dir: t.TempDir(), args: slices.Clone(initArgs)}
	var flags []string
	for _, l := range c.layers() {
		copyTree(t, l.path("before"), r.dir, nil)
		// a case's flags file holds its layout flags (-api ...)
		if b, err := os.ReadFile(l.path("flags")); err == nil {
			flags = strings.Fields(string(b))
		}
	}
	r.args = append(r.args, flags...)
	r.before = readTree(t, r.dir)
	r.dryRun = runInit(t, append(slices.Clone(r.args), "-dry-run", r.dir))
	r.afterDryRun = readTree(t, r.dir)
	runInit(t, append(slices.Clone(r.args), r.dir))
	r.after = readTree(t, r.dir)
	return r
}

// runInit runs init with args and returns what it printed.
func runInit(t *testing.T, args []string) string {
	t.Helper()
	var out bytes.Buffer
	if err := RunInit(args, &out, &out); err != nil {
		t.Fatalf("init %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// sameAs is the line dry-run.diff has in place of a file's diff that is
// the base's.
func (c initCase) sameAs() string {
	return fmt.Sprintf("same as ../%s/dry-run.diff\n", c.base)
}

// update rewrites the case's dry-run.diff and after/ from r: with a base,
// only what differs from the base's output, made anew.
func (c initCase) update(t *testing.T, r initRun) {
	t.Helper()
	diff, after := r.dryRun, r.after
	if c.base != "" {
		base := initCase{name: c.base}.run(t)
		diff = thinDiff(t, diff, base.dryRun, c.sameAs())
		after = maps.Clone(after)
		for name, text := range base.after {
			got, ok := after[name]
			if !ok {
				t.Fatalf("-update: %s is in %s's tree after init, not in this one's: after/ cannot say so", name, c.base)
			}
			if got == text {
				delete(after, name)
			}
		}
	}
	writeFile(t, c.path("dry-run.diff"), diff)
	if err := os.RemoveAll(c.path("after")); err != nil {
		t.Fatal(err)
	}
	for name, text := range after {
		writeFile(t, c.path("after", filepath.FromSlash(name)), text)
	}
}

// golden names dry-run.diff, and the base's it is filled in from.
func (c initCase) golden() string {
	if c.base == "" {
		return c.path("dry-run.diff")
	}
	return c.path("dry-run.diff") + " over " + initCase{name: c.base}.path("dry-run.diff")
}

// wantDiff is what -dry-run must print: dry-run.diff, with the base's
// diffs filled in.
func (c initCase) wantDiff(t *testing.T) string {
	t.Helper()
	own := readGolden(t, c.path("dry-run.diff"))
	if c.base == "" {
		return own
	}
	base := initCase{name: c.base}.path("dry-run.diff")
	return fillDiff(t, c.path("dry-run.diff"), own, base, readGolden(t, base), c.sameAs())
}

// wantAfter is the tree init must make: after/, over the base's.
func (c initCase) wantAfter(t *testing.T) map[string]string {
	t.Helper()
	want := map[string]string{}
	for _, l := range c.layers() {
		if l.name == c.name && c.base != "" && !isDir(l.path(), "after") {
			continue // init makes the base's tree
		}
		maps.Copy(want, readTree(t, l.path("after")))
	}
	return want
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func compareTrees(t *testing.T, when string, got, want map[string]string) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s: %s is missing", when, name)
		case g != w:
			t.Errorf("%s: %s differs:\n%s", when, name, unifiedDiff(name, w, g, false))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected file %s", when, name)
		}
	}
}

// compareText compares got with the file golden.
func compareText(t *testing.T, golden, got string) {
	t.Helper()
	compareWant(t, golden, readGolden(t, golden), got)
}

// compareWant compares got with want, the text golden stands for.
func compareWant(t *testing.T, golden, want, got string) {
	t.Helper()
	if got != want {
		t.Errorf("output differs from %s (-update rewrites it):\n%s", golden, unifiedDiff(golden, want, got, false))
	}
}

// readGolden reads a file of testdata.
func readGolden(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
