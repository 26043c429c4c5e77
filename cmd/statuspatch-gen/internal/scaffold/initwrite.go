package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// applyEdits writes every edit, all or none: each new text goes to a
// temporary file beside its target first, and only when all of them are
// written are they renamed over their targets (removals last); a failure
// on the way puts back what was renamed already.
func applyEdits(dir string, edits []fileEdit) error {
	type staged struct {
		e        fileEdit
		tmp, dst string
	}
	var ready []staged
	var made []string // folders made for new files, deepest last
	cleanup := func() {
		for _, r := range ready {
			os.Remove(r.tmp)
		}
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i]) // only while empty
		}
	}
	for _, e := range edits {
		if e.del {
			continue
		}
		target := filepath.Join(dir, filepath.FromSlash(e.path))
		mode := fs.FileMode(0o644)
		if st, err := os.Stat(target); err == nil {
			mode = st.Mode().Perm()
		}
		for d := filepath.Dir(target); !isDir(d, "."); d = filepath.Dir(d) {
			made = append([]string{d}, made...)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			cleanup()
			return fmt.Errorf("statuspatch-gen init: %w (nothing written)", err)
		}
		tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".statuspatch-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("statuspatch-gen init: %w (nothing written)", err)
		}
		_, werr := tmp.WriteString(e.new)
		cerr := tmp.Close()
		ready = append(ready, staged{e, tmp.Name(), target})
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
			cleanup()
			return fmt.Errorf("statuspatch-gen init: write %s: %w (nothing written)", target, err)
		}
	}
	for i, r := range ready {
		if err := os.Rename(r.tmp, r.dst); err != nil {
			var done []fileEdit
			for _, d := range ready[:i] {
				done = append(done, d.e)
			}
			err = errors.Join(err, restoreEdits(dir, done))
			cleanup()
			return fmt.Errorf("statuspatch-gen init: %w (nothing written)", err)
		}
	}
	for _, e := range edits {
		if e.del {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(e.path))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("statuspatch-gen init: %w", err)
			}
		}
	}
	return nil
}

// restoreEdits puts back the text each edit replaced (removing the files
// it created, writing back the ones it removed).
func restoreEdits(dir string, edits []fileEdit) error {
	var errs []error
	for _, e := range edits {
		target := filepath.Join(dir, filepath.FromSlash(e.path))
		switch {
		case e.old == "" && !e.del:
			if err := os.Remove(target); !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		default:
			errs = append(errs, os.WriteFile(target, []byte(e.old), 0o644))
		}
	}
	return errors.Join(errs...)
}
