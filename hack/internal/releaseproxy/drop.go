package releaseproxy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/module"
)

// A servedCopy is one module a proxy served, as the go command keeps it in
// the module cache: its extracted folder (<path>@<version>, escaped), and
// its download folder (cache/download/<path>/@v), where its files are
// <version>.info, .mod, .zip, .ziphash, .lock and the list names it.
type servedCopy struct {
	folder, downloads, version string
}

// servedIn is where c.Served's modules are in c.ModCache.
func servedIn(c Caches) ([]servedCopy, error) {
	var out []servedCopy
	for _, mv := range c.Served {
		p, v, ok := strings.Cut(mv, "@")
		if !ok {
			return nil, fmt.Errorf("served module %q: want module@version", mv)
		}
		escPath, err := module.EscapePath(p)
		if err != nil {
			return nil, fmt.Errorf("served module %q: %w", mv, err)
		}
		escVersion, err := module.EscapeVersion(v)
		if err != nil {
			return nil, fmt.Errorf("served module %q: %w", mv, err)
		}
		esc := filepath.FromSlash(escPath)
		out = append(out, servedCopy{
			folder:    filepath.Join(c.ModCache, esc+"@"+escVersion),
			downloads: filepath.Join(c.ModCache, "cache", "download", esc, "@v"),
			version:   escVersion,
		})
	}
	return out, nil
}

// Drop removes from c.ModCache the modules of c.Served and nothing else:
// each one's extracted folder (read-only as the go command leaves it:
// chmod -R u+w; rm -rf) and the go command's module index of it
// (DropIndex), its downloads (the version's files; the version out of the
// folder's list), then the folders left empty above them. A missing one
// is no error. Another version of the same module, in the same folders,
// stays: another project, or another checkout's run, may build from it.
func Drop(c Caches) error {
	mods, err := servedIn(c)
	if err != nil {
		return err
	}
	var folders []string
	for _, m := range mods {
		folders = append(folders, m.folder)
	}
	if err := DropIndex(c, folders); err != nil {
		return err
	}
	var errs []error
	for _, m := range mods {
		if err := removeTree(m.folder); err != nil {
			errs = append(errs, fmt.Errorf("dropping %s from the module cache: %w", m.folder, err))
		}
		if err := dropDownloads(m.downloads, m.version); err != nil {
			errs = append(errs, fmt.Errorf("dropping %s of %s from the module cache: %w", m.version, m.downloads, err))
		}
	}
	for _, m := range mods {
		pruneEmpty(filepath.Dir(m.folder), c.ModCache)
		pruneEmpty(m.downloads, filepath.Join(c.ModCache, "cache", "download"))
	}
	return errors.Join(errs...)
}

// removeTree makes dir's folders writable and removes it.
func removeTree(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		return os.Chmod(p, info.Mode().Perm()|0o200)
	})
	if err != nil {
		return err
	}
	return os.RemoveAll(dir)
}

// dropDownloads removes version's files from the download folder dir
// (<version>.<ext>: no other version's name starts so, a version having
// three numbers) and takes version out of dir's list, under the flock the
// go command takes to rewrite it (lockedfile); the list goes when no
// version is left.
func dropDownloads(dir, version string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), version+".") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	name := filepath.Join(dir, "list")
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lockDescriptor(int(f.Fd()), name, nil); err != nil {
		return err
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	versions := strings.Fields(string(data))
	if !slices.Contains(versions, version) {
		return nil
	}
	versions = slices.DeleteFunc(versions, func(v string) bool { return v == version })
	if len(versions) == 0 {
		return os.Remove(name)
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt([]byte(strings.Join(versions, "\n")+"\n"), 0)
	return err
}

// pruneEmpty removes dir and each folder above it up to (not including)
// root while they are empty.
func pruneEmpty(dir, root string) {
	for strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
