package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// changelogSection reports whether CHANGELOG.md's text has a section for
// version: a heading line "## vX.Y.Z" or "## [vX.Y.Z]", optionally
// followed by " - DATE" or another word; an "Unreleased" section does not
// count.
func changelogSection(text []byte, version string) bool {
	re := regexp.MustCompile(`^##\s+\[?` + regexp.QuoteMeta(version) + `\]?(\s|$)`)
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		if re.MatchString(sc.Text()) {
			return true
		}
	}
	return false
}

// checkChangelog refuses a release whose version has no section in the
// repository's CHANGELOG.md (as HEAD has it: the release is made from
// HEAD).
func (r *release) checkChangelog(ctx context.Context) error {
	text, err := r.git(ctx, r.root, "show", "HEAD:CHANGELOG.md")
	if err != nil {
		return fmt.Errorf("reading CHANGELOG.md at HEAD: %w (a release needs its notes: add a \"## %s\" section to CHANGELOG.md and commit it)", err, r.version)
	}
	if !changelogSection([]byte(text), r.version) {
		return fmt.Errorf("CHANGELOG.md at HEAD has no section for %s: add \"## %s - DATE\" with the release's notes and commit it", r.version, r.version)
	}
	return nil
}

// compatCmdEnv names a shell command that replaces make test-compat-all
// in the gate, said in the release's output: for the release route's own
// tests (release-concurrency-test's --apply in a scratch clone), which
// test the tags and the lock, not the lines.
const compatCmdEnv = "RELEASE_COMPAT_CMD"

// errCompat is the release's refusal when a supported line fails.
var errCompat = errors.New("make test-compat-all failed (output above): every supported line must pass before a release is tagged")

// compatAll runs make test-compat-all in the repository: every supported
// controller-runtime / k8s.io / Go line, adoption at each older line and
// the newcomer route at every line (each submission's CI tests the floor
// and the workspace's lines only). Its output is the route's.
func (r *release) compatAll(ctx context.Context) error {
	if r.gate != nil {
		return r.gate(ctx)
	}
	cmd := exec.CommandContext(ctx, "make", "-C", r.root, "test-compat-all")
	if c := os.Getenv(compatCmdEnv); c != "" {
		fmt.Fprintf(r.out, "release: %s=%q instead of make test-compat-all\n", compatCmdEnv, c)
		cmd = exec.CommandContext(ctx, "sh", "-c", c)
		cmd.Dir = r.root
	} else {
		fmt.Fprintln(r.out, "release: make test-compat-all (every supported line; an hour or more on 2 cores)")
	}
	cmd.Stdout, cmd.Stderr = r.out, r.errw
	cmd.Env = append(os.Environ(), "MAKEFLAGS=")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %w", errCompat, err)
	}
	return nil
}

// gateApply is what a real release (--apply) must pass before any tag:
// the version's CHANGELOG.md section, then every supported line. A dry
// run only notes a missing section (its tags stay in a scratch clone).
func (r *release) gateApply(ctx context.Context) error {
	if !r.apply {
		if err := r.checkChangelog(ctx); err != nil {
			fmt.Fprintf(r.out, "release: note (dry run): %v\n", err)
		}
		return nil
	}
	if err := r.checkChangelog(ctx); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(r.root, "Makefile")); err != nil {
		return fmt.Errorf("no Makefile in %s to run make test-compat-all: %w", r.root, err)
	}
	return r.compatAll(ctx)
}
