package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// testVersion is the version release-test's dry run releases.
const testVersion = "v0.99.0"

// checkClone checks a clone the release prepared at version from a
// repository whose last release was old: each published module tagged,
// with no replace directive; the release commit; every requirement between
// the modules at version with its go.sum hash (the modules table's); the
// root's and the tools' go.mod and go.sum unchanged; the install docs and
// go.work files at version; old left nowhere. Every problem is reported.
func checkClone(ctx context.Context, clone, version, old string) error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(clone, name))
		if err != nil {
			fail("%w", err)
		}
		return string(data)
	}
	have, err := exec.CommandContext(ctx, "git", "-C", clone, "tag", "-l").Output()
	if err != nil {
		fail("git -C %s tag -l: %w", clone, err)
	}
	for i, t := range tags(version) {
		if !slices.Contains(strings.Fields(string(have)), t) {
			fail("no tag %s in the prepared clone %s", t, clone)
		}
		gomod := filepath.ToSlash(filepath.Join(modules[i].dir, "go.mod"))
		if err := noReplace(gomod, []byte(read(gomod))); err != nil {
			errs = append(errs, err)
		}
	}
	subject, err := exec.CommandContext(ctx, "git", "-C", clone, "log", "-1", "--format=%s").Output()
	if err != nil {
		fail("git -C %s log: %w", clone, err)
	} else if strings.TrimSpace(string(subject)) != "release: "+version {
		fail("%s: no release commit (HEAD's subject %q)", clone, strings.TrimSpace(string(subject)))
	}
	v := regexp.QuoteMeta(version)
	for _, m := range modules {
		gomod, gosum := filepath.Join(m.dir, "go.mod"), filepath.Join(m.dir, "go.sum")
		if len(m.needs) == 0 {
			if exec.CommandContext(ctx, "git", "-C", clone, "diff", "--quiet", "HEAD~1", "HEAD", "--", gomod, gosum).Run() != nil {
				fail("the release changed %s or %s (it needs no sibling: released as it is)", gomod, gosum)
			}
			continue
		}
		mod, sum := read(gomod), read(gosum)
		for _, s := range m.needs {
			p := regexp.QuoteMeta(modPath(s))
			if !regexp.MustCompile(`(?m)^\s*(require\s+)?` + p + ` ` + v + `( // indirect)?$`).MatchString(mod) {
				fail("%s does not require %s at %s", gomod, modPath(s), version)
			}
			if !regexp.MustCompile(`(?m)^` + p + ` ` + v + `/go.mod h1:`).MatchString(sum) {
				fail("%s lacks %s's %s hash", gosum, modPath(s), version)
			}
		}
	}
	contains := func(name, re, what string) {
		if !regexp.MustCompile(re).MatchString(read(name)) {
			fail("%s: %s", name, what)
		}
	}
	contains("README.md", `statuspatch-gen@`+v, "the install commands are not at "+version)
	contains("docs/kubebuilder.md", `STATUSPATCH_VERSION \?= `+v, "the version variable is not "+version)
	for _, d := range []string{".", "testenv", "testenv/explore", "cmd/statuspatch-gen", "cmd/statuspatch-lint"} {
		contains("go.work", `(?m)^\s*(replace\s+)?`+regexp.QuoteMeta(modPath(d))+` `+v+` => `, "does not map "+modPath(d)+" "+version+" to the checkout")
	}
	contains("hack/golangci-plugin/go.work", `(?m)^\s*replace `+regexp.QuoteMeta(modPath("cmd/statuspatch-lint"))+` `+v+` => `,
		"does not map cmd/statuspatch-lint "+version+" to the checkout")
	stale := regexp.MustCompile(regexp.QuoteMeta(prefix) + `[a-z/-]*[ @]` + regexp.QuoteMeta(old) + `\b`)
	names := []string{"go.work", "hack/go.mod", "hack/golangci-plugin/go.mod", "hack/golangci-plugin/go.work", "README.md", "docs/kubebuilder.md"}
	for _, m := range modules {
		if m.dir != "hack/golangci-plugin" {
			names = append(names, filepath.ToSlash(filepath.Join(m.dir, "go.mod")))
		}
	}
	for _, name := range names {
		for i, line := range strings.Split(read(name), "\n") {
			if stale.MatchString(line) {
				fail("%s:%d: the release left the previous version %s behind: %s", name, i+1, old, strings.TrimSpace(line))
			}
		}
	}
	return errors.Join(errs...)
}

// testRelease is release-test: hack/release.sh (the entry point, from the
// repository at root) refuses bad input before any work; its dry run of
// testVersion leaves the repository alone and prepares a clone that
// checkClone accepts; a tag that exists stops it.
func testRelease(ctx context.Context, root string, out io.Writer) error {
	script := filepath.Join(root, "hack", "release.sh")
	// quiet runs the release.sh of the repository at dir, output dropped.
	quiet := func(dir string, args ...string) error {
		cmd := exec.CommandContext(ctx, filepath.Join(dir, "hack", "release.sh"), args...)
		cmd.Dir = dir
		return cmd.Run()
	}
	for _, bad := range [][]string{{"0.2.0"}, {"v0.2"}, {"v1.2.3+build"}, {testVersion, "--bogus"}} {
		if quiet(root, bad...) == nil {
			return fmt.Errorf("release.sh accepted %s", strings.Join(bad, " "))
		}
	}
	fmt.Fprintln(out, "ok: bad versions and flags are refused")

	git := func(dir string, args ...string) (string, error) {
		b, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).Output()
		if err != nil {
			return "", fmt.Errorf("git -C %s %s: %w", dir, strings.Join(args, " "), err)
		}
		return string(b), nil
	}
	headBefore, err := git(root, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	tagsBefore, err := git(root, "tag", "-l")
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(root, "testenv", "go.mod"))
	if err != nil {
		return err
	}
	old, err := lastRelease("testenv/go.mod", data)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "release-test-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(work) }()
	clone := filepath.Join(work, "clone")
	cmd := exec.CommandContext(ctx, script, testVersion, "--keep", clone)
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, out, out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("release.sh %s --keep %s: %w", testVersion, clone, err)
	}
	headAfter, err := git(root, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	if headAfter != headBefore {
		return fmt.Errorf("the dry run moved HEAD of %s", root)
	}
	tagsAfter, err := git(root, "tag", "-l")
	if err != nil {
		return err
	}
	if tagsAfter != tagsBefore {
		return fmt.Errorf("the dry run created tags in %s", root)
	}
	if err := checkClone(ctx, clone, testVersion, old); err != nil {
		return err
	}
	fmt.Fprintf(out, "ok: dry run of %s: commit, %d tags, requirements, go.work, docs; nothing changed here\n", testVersion, len(tags(testVersion)))

	if _, err := git(clone, "tag", "-d", testVersion); err != nil {
		return err
	}
	if _, err := git(clone, "tag", testVersion, "HEAD"); err != nil {
		return err
	}
	if quiet(clone, testVersion) == nil {
		return fmt.Errorf("release.sh went ahead although tag %s exists", testVersion)
	}
	fmt.Fprintln(out, "ok: an existing tag is refused")
	return nil
}
