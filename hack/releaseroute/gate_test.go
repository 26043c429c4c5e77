package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestChangelogSection(t *testing.T) {
	text := []byte("# Changelog\n\n## Unreleased\n\n## v0.3.0 - 2026-12-01\n- x\n\n## [v0.2.0]\n")
	for v, want := range map[string]bool{"v0.3.0": true, "v0.2.0": true, "v0.3": false, "v0.3.0-rc.1": false, "v0.1.0": false} {
		if got := changelogSection(text, v); got != want {
			t.Errorf("changelogSection(%s) = %v, want %v", v, got, want)
		}
	}
	if changelogSection([]byte("text about v0.3.0\n### v0.3.0\n"), "v0.3.0") {
		t.Error("a mention or a lower heading counted as the section")
	}
}

// gitRepo makes a repository with one commit holding files.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// A real release (--apply) needs the version's CHANGELOG.md section and
// make test-compat-all's pass before anything is cloned or tagged; a dry
// run notes a missing section and runs no gate.
func TestGateApply(t *testing.T) {
	with := map[string]string{"Makefile": "x:\n", "CHANGELOG.md": "## v0.5.0 - 2026-12-01\n- notes\n"}
	without := map[string]string{"Makefile": "x:\n", "CHANGELOG.md": "## v0.4.0\n"}
	failing := errors.New("a line failed")
	for _, c := range []struct {
		name     string
		files    map[string]string
		apply    bool
		gateErr  error
		wantGate bool
		wantErr  string
	}{
		{"apply, section, lines pass", with, true, nil, true, ""},
		{"apply, section, a line fails", with, true, failing, true, "a line failed"},
		{"apply, no section", without, true, nil, false, "CHANGELOG.md at HEAD has no section for v0.5.0"},
		{"apply, no CHANGELOG.md", map[string]string{"Makefile": "x:\n"}, true, nil, false, "reading CHANGELOG.md at HEAD"},
		{"dry run, no section", without, false, nil, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			called := false
			r := &release{root: gitRepo(t, c.files), version: "v0.5.0", apply: c.apply, out: &out, errw: &out,
				gate: func(context.Context) error { called = true; return c.gateErr }}
			err := r.gateApply(context.Background())
			if called != c.wantGate {
				t.Errorf("gate called: %v, want %v", called, c.wantGate)
			}
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("error: %v", err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("error %v, want one containing %q", err, c.wantErr)
			}
			if !c.apply && !strings.Contains(out.String(), "no section for v0.5.0") {
				t.Errorf("the dry run did not note the missing section: %q", out.String())
			}
		})
	}
}

// A real release whose lines fail stops before it clones or tags.
func TestApplyRefusedByFailingLinesTagsNothing(t *testing.T) {
	root := gitRepo(t, map[string]string{"Makefile": "x:\n", "CHANGELOG.md": "## v0.5.0\n"})
	var out bytes.Buffer
	r := &release{root: root, version: "v0.5.0", apply: true, out: &out, errw: &out,
		gate: func(context.Context) error { return errCompat }}
	if err := r.run(context.Background()); !errors.Is(err, errCompat) {
		t.Fatalf("run: %v, want errCompat", err)
	}
	if tags, _ := exec.Command("git", "-C", root, "tag").Output(); len(tags) != 0 {
		t.Errorf("tags made: %s", tags)
	}
}

// RELEASE_COMPAT_CMD replaces make test-compat-all, saying so; its failure
// refuses the release as the lines' would.
func TestCompatCmdReplacesTheLinesSayingSo(t *testing.T) {
	root := t.TempDir()
	for cmd, wantErr := range map[string]bool{"true": false, "exit 3": true} {
		t.Setenv(compatCmdEnv, cmd)
		var out bytes.Buffer
		r := &release{root: root, version: "v0.5.0", apply: true, out: &out, errw: &out}
		err := r.compatAll(context.Background())
		if wantErr != errors.Is(err, errCompat) || (!wantErr && err != nil) {
			t.Errorf("%s=%q: %v", compatCmdEnv, cmd, err)
		}
		if !strings.Contains(out.String(), "instead of make test-compat-all") {
			t.Errorf("%s=%q: the release did not say it replaced the lines: %q", compatCmdEnv, cmd, out.String())
		}
	}
}
