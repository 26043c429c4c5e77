// Package modproxy writes a file-based Go module proxy holding this
// repository's published modules (the runtime at the root, testenv, the
// explorer under testenv/explore, the two tools under cmd/, the examples
// and the golangci-lint plugin) at one version, as a proxy would serve
// them after hack/release.sh tagged that version: hack/modproxy is its command, hack/internal/releaseproxy builds
// one for the scripts that install from it, hack/releaseroute one for each
// module a release tidies.
//
// Build's zips hold the files git tracks in the working tree (plus untracked
// files that are not ignored), so a module built from it matches what the go
// command would fetch from the tag; BuildCommit's hold HEAD's commit at its
// pseudo-version, for a checkout not released (docs/kubebuilder.md's "from
// a checkout"), so that two commits never share a version. Build refuses a go.mod with a replace
// directive, one that requires a sibling at another version, and one that
// requires a module of this repository that is not published (hack): a
// published module with any of them would not build for its users.
package modproxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
	"golang.org/x/mod/zip"
)

// Published lists the directories of the modules a release tags, relative to
// the repository root ("." is the root module): one module per thing a user
// imports or installs. The examples are published so that a user can read
// and run them at a release (and so that a release proves a module at the
// newest supported line resolves the others without a replace);
// hack/golangci-plugin because docs/kubebuilder.md installs it with
// go install. hack itself (benchratio, modproxy) is for development only.
var Published = []string{".", "testenv", "testenv/explore", "cmd/statuspatch-gen", "cmd/statuspatch-lint", "examples", "hack/golangci-plugin"}

// Build writes the proxy of the modules of Published in the repository
// at repo, at version, into out (created if missing; versions already in
// it stay listed), and prints "module@version" for each module to listing.
func Build(repo, version, out string, listing io.Writer) error {
	if !semver.IsValid(version) || semver.Canonical(version) != version || semver.Build(version) != "" {
		return fmt.Errorf("version %q is not a canonical semantic version like v0.1.0", version)
	}
	mods, err := readModules(repo, Published)
	if err != nil {
		return err
	}
	if err := checkPublishable(mods, version); err != nil {
		return err
	}
	stage, err := os.MkdirTemp("", "modproxy-stage-")
	if err != nil {
		return err
	}
	defer func() { _ = os.RemoveAll(stage) }()
	if err := stageFiles(repo, stage); err != nil {
		return err
	}
	infoTime, err := gitOutput(repo, "log", "-1", "--format=%cI")
	if err != nil {
		return err
	}
	return writeModules(out, stage, mods, version, strings.TrimSpace(infoTime), listing)
}

// writeModules writes each of mods, staged under stage, at version, and
// prints "module@version" for each to listing.
func writeModules(out, stage string, mods []mod, version, infoTime string, listing io.Writer) error {
	for _, m := range mods {
		if err := writeModule(out, filepath.Join(stage, m.dir), m, version, infoTime); err != nil {
			return fmt.Errorf("%s: %w", m.file.Module.Mod.Path, err)
		}
		if _, err := fmt.Fprintf(listing, "%s@%s\n", m.file.Module.Mod.Path, version); err != nil {
			return err
		}
	}
	return nil
}

type mod struct {
	dir  string // relative to the repository root
	name string // the go.mod's name for messages, e.g. testenv/go.mod
	data []byte
	file *modfile.File
}

func readModules(repo string, dirs []string) ([]mod, error) {
	var mods []mod
	for _, dir := range dirs {
		name := filepath.ToSlash(filepath.Join(dir, "go.mod"))
		data, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			return nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, err
		}
		if f.Module == nil {
			return nil, fmt.Errorf("%s: no module line", name)
		}
		mods = append(mods, mod{dir: dir, name: name, data: data, file: f})
	}
	return mods, nil
}

// checkPublishable reports every replace directive, every requirement of a
// sibling module at a version other than the one being published, and every
// requirement of a module under the root module's path that is not
// published. mods[0] is the root module.
func checkPublishable(mods []mod, version string) error {
	siblings := map[string]bool{}
	for _, m := range mods {
		siblings[m.file.Module.Mod.Path] = true
	}
	prefix := mods[0].file.Module.Mod.Path + "/"
	var errs []error
	for _, m := range mods {
		for _, r := range m.file.Replace {
			errs = append(errs, fmt.Errorf("%s:%d: replace %s: a published go.mod must not replace modules (use go.work for local development)",
				m.name, r.Syntax.Start.Line, r.Old.Path))
		}
		for _, r := range m.file.Require {
			switch {
			case siblings[r.Mod.Path] && r.Mod.Version != version:
				errs = append(errs, fmt.Errorf("%s:%d: requires %s %s, but the modules are being published at %s (hack/release.sh moves the requirements)",
					m.name, r.Syntax.Start.Line, r.Mod.Path, r.Mod.Version, version))
			case !siblings[r.Mod.Path] && strings.HasPrefix(r.Mod.Path, prefix):
				errs = append(errs, fmt.Errorf("%s:%d: requires %s, a module of this repository that is not published (hack/internal/modproxy's Published)",
					m.name, r.Syntax.Start.Line, r.Mod.Path))
			}
		}
	}
	return errors.Join(errs...)
}

// stageFiles copies the files git knows of (tracked, and untracked but not
// ignored) into stage, so build outputs and caches never reach a zip.
func stageFiles(repo, stage string) error {
	list, err := gitOutput(repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return err
	}
	for _, name := range strings.Split(list, "\x00") {
		if name == "" {
			continue
		}
		src := filepath.Join(repo, name)
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree, not yet committed
		}
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			continue
		}
		if err := copyFile(src, filepath.Join(stage, name)); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer func() { _ = in.Close() }()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return out.Close()
}

// writeModule adds version to the proxy's list and writes its .info, .mod
// and .zip files.
func writeModule(out, dir string, m mod, version, infoTime string) error {
	escaped, err := module.EscapePath(m.file.Module.Mod.Path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	info, err := json.Marshal(struct{ Version, Time string }{version, infoTime})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vdir, version+".info"), info, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(vdir, version+".mod"), m.data, 0o644); err != nil {
		return err
	}
	var buf bytes.Buffer
	mv := module.Version{Path: m.file.Module.Mod.Path, Version: version}
	if err := zip.CreateFromDir(&buf, mv, dir); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	if err := os.WriteFile(filepath.Join(vdir, version+".zip"), buf.Bytes(), 0o644); err != nil {
		return err
	}
	return addToList(filepath.Join(vdir, "list"), version)
}

func addToList(path, version string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	versions := strings.Fields(string(data))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	semver.Sort(versions)
	return os.WriteFile(path, []byte(strings.Join(versions, "\n")+"\n"), 0o644)
}

func gitOutput(repo string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(b), nil
}
