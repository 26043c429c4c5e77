package modproxy

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
)

// BuildCommit writes the proxy of the modules of Published at repo's HEAD
// commit into out (versions already in it stay listed) under the version
// the go command gives a commit no tag names,
// v0.0.0-yyyymmddhhmmss-abcdefabcdef (module.PseudoVersion: the commit's
// time in UTC, the first 12 digits of its hash), and returns that version.
//
// The zips hold the commit's files (git archive), not the working tree's,
// and each go.mod's requirement of a sibling, at the one version the
// checkout's go.mod files name (the next release's), is written at the
// commit's version. So one version is always one tree, and two commits
// never share a version: a module cache or a go.sum holding an earlier
// commit's build keeps it under that commit's version, and neither a stale
// tree nor a checksum mismatch can meet a later build (Build at a release
// version, run twice at two commits, gives both trees that version).
func BuildCommit(repo, out string, listing io.Writer) (string, error) {
	return buildCommit(repo, out, Published, listing)
}

// buildCommit is BuildCommit of the modules in dirs (dirs[0] the root).
func buildCommit(repo, out string, dirs []string, listing io.Writer) (string, error) {
	head, err := gitOutput(repo, "log", "-1", "--format=%H %ct %cI", "HEAD")
	if err != nil {
		return "", err
	}
	f := strings.Fields(head)
	if len(f) != 3 || len(f[0]) < 12 {
		return "", fmt.Errorf("git log -1 --format='%%H %%ct %%cI' HEAD in %s printed %q, want a hash and two times", repo, head)
	}
	sec, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return "", fmt.Errorf("commit time %q of %s: %w", f[1], f[0], err)
	}
	version := module.PseudoVersion("v0", "", time.Unix(sec, 0).UTC(), f[0][:12])
	stage, err := os.MkdirTemp("", "modproxy-stage-")
	if err != nil {
		return "", err
	}
	defer func() { _ = os.RemoveAll(stage) }()
	if err := stageCommit(repo, f[0], stage); err != nil {
		return "", err
	}
	mods, err := readModules(stage, dirs)
	if err != nil {
		return "", fmt.Errorf("commit %s: %w", f[0][:12], err)
	}
	if err := checkPublishable(mods, siblingVersion(mods, version)); err != nil {
		return "", fmt.Errorf("commit %s: %w", f[0][:12], err)
	}
	if err := requireSiblingsAt(stage, mods, version); err != nil {
		return "", err
	}
	return version, writeModules(out, stage, mods, version, f[2], listing)
}

// siblingVersion is the version at which the first requirement of a
// sibling module names it (checkPublishable then holds every other to it),
// or def when no module requires a sibling.
func siblingVersion(mods []mod, def string) string {
	siblings := map[string]bool{}
	for _, m := range mods {
		siblings[m.file.Module.Mod.Path] = true
	}
	for _, m := range mods {
		for _, r := range m.file.Require {
			if siblings[r.Mod.Path] {
				return r.Mod.Version
			}
		}
	}
	return def
}

// requireSiblingsAt rewrites each staged go.mod's requirements of sibling
// modules to version, in the file the zip takes and in mods' data (the
// proxy's .mod file).
func requireSiblingsAt(stage string, mods []mod, version string) error {
	siblings := map[string]bool{}
	for _, m := range mods {
		siblings[m.file.Module.Mod.Path] = true
	}
	for i, m := range mods {
		var paths []string
		for _, r := range m.file.Require {
			if siblings[r.Mod.Path] {
				paths = append(paths, r.Mod.Path)
			}
		}
		if len(paths) == 0 {
			continue
		}
		for _, p := range paths {
			if err := m.file.AddRequire(p, version); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
		}
		data, err := m.file.Format()
		if err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
		if err := os.WriteFile(filepath.Join(stage, m.name), data, 0o644); err != nil {
			return err
		}
		mods[i].data = data
	}
	return nil
}

// stageCommit writes the regular files of commit (git archive) into stage.
func stageCommit(repo, commit, stage string) error {
	cmd := exec.Command("git", "-C", repo, "archive", "--format=tar", commit)
	cmd.Stderr = os.Stderr
	r, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	tr := tar.NewReader(r)
	var werr error
	for werr == nil {
		var h *tar.Header
		if h, werr = tr.Next(); werr != nil {
			break
		}
		if h.Typeflag != tar.TypeReg {
			continue // directories are made below; links are not published
		}
		werr = writeFrom(tr, filepath.Join(stage, filepath.FromSlash(h.Name)))
	}
	if errors.Is(werr, io.EOF) {
		werr = nil
	}
	_, _ = io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git archive %s: %w", commit, err)
	}
	if werr != nil {
		return fmt.Errorf("git archive %s: %w", commit, werr)
	}
	return nil
}

func writeFrom(r io.Reader, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// Uncommitted lists the working tree's changes BuildCommit leaves out (git
// status --porcelain), "" when there are none.
func Uncommitted(repo string) (string, error) {
	return gitOutput(repo, "status", "--porcelain")
}
